#!/usr/bin/env node
// The `pathlab` command. pathlab ships its TypeScript sources; tsx compiles them on load.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
