// A module that is not a model: it exports no simulate.
export const model = "gbm";
