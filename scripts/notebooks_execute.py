"""nbconvert's ExecutePreprocessor, waiting for the outputs that the Deno kernel sends late.

`deno jupyter` (2.9) sends a cell's outputs and its `status: idle` from different tasks, so an
output (a `console.log` line, a display, even the cell's result) can reach the client a few
milliseconds after the idle status. nbclient stops collecting a cell's outputs at that status and
drops what comes after, so an executed notebook would miss a chart now and then. This preprocessor
keeps reading the IOPub channel after the idle status until no message of the cell has arrived for
`grace_seconds`, and adds the late ones to the cell.

It also gives each chart (notebooks/plot.ts) the width to show it at: a chart's PNG is drawn at
twice its size and carries its size as `application/vnd.pathlab.display-size+json` data, since
the Deno kernel sends no output metadata; that size becomes the output's `image/png` metadata,
which Jupyter and nbconvert's HTML read, and the extra data is dropped.

`npm run notebooks` (scripts/notebooks.mjs) runs it through nbconvert:
    PYTHONPATH=scripts jupyter nbconvert --to notebook \
      --NotebookExporter.preprocessors='["notebooks_execute.DenoExecutePreprocessor"]' ...
"""

from queue import Empty

from nbclient.exceptions import CellExecutionComplete
from nbclient.util import ensure_async
from nbconvert.preprocessors import ExecutePreprocessor
from traitlets import Bool, Float


DISPLAY_SIZE = "application/vnd.pathlab.display-size+json"


class DenoExecutePreprocessor(ExecutePreprocessor):
    """Executes every cell, then collects the cell's outputs that arrive after its idle status."""

    enabled = Bool(True).tag(config=True)
    grace_seconds = Float(
        0.3, help="Seconds without a message of the cell after which its late outputs are done."
    ).tag(config=True)

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        await super()._async_poll_output_msg(parent_msg_id, cell, cell_index)
        while True:
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=self.grace_seconds))
            except Empty:
                return
            if msg["parent_header"].get("msg_id") != parent_msg_id:
                continue
            try:
                self.process_message(msg, cell, cell_index)
            except CellExecutionComplete:
                pass

    def preprocess_cell(self, cell, resources, index):
        cell, resources = super().preprocess_cell(cell, resources, index)
        for output in cell.get("outputs", []):
            size = output.get("data", {}).pop(DISPLAY_SIZE, None)
            if size is not None and "image/png" in output["data"]:
                output.setdefault("metadata", {})["image/png"] = {"width": size["width"]}
        return cell, resources
