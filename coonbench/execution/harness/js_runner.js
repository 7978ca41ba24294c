// Runs a candidate JavaScript function against test cases inside the sandbox; prints one JSON result line.
// Self-contained (Node built-ins only). Usage: node js_runner.js SOLUTION CASES NAME CASE_TIMEOUT_S
// The solution runs in a fresh vm context (no require, no process); each call has a vm timeout.
"use strict";
const fs = require("fs");
const vm = require("vm");
const RESULT_MARKER = "@@COONBENCH-RESULT@@";
const BUG_ERRORS = new Set(["TypeError", "ReferenceError", "SyntaxError", "EvalError", "URIError"]);

function encode(value, depth) {
  if (depth > 50) return { __unrepresentable__: "too deep" };
  if (value === null) return null;
  const t = typeof value;
  if (t === "boolean" || t === "string") return value;
  if (t === "number") return Number.isFinite(value) ? value : { __unrepresentable__: "number " + String(value) };
  if (t === "undefined") return { __unrepresentable__: "undefined" };
  if (t === "function") return { __fn__: true };
  if (t === "bigint") return { __unrepresentable__: "bigint", repr: String(value) };
  if (Array.isArray(value)) return value.map((v) => encode(v, depth + 1));
  if (value instanceof Map || value instanceof Set) return { __unrepresentable__: value.constructor.name };
  if (t === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== null && Object.getPrototypeOf(proto) !== null) {
      return { __unrepresentable__: (value.constructor && value.constructor.name) || "object" };
    }
    const out = {};
    for (const k of Object.keys(value)) out[k] = encode(value[k], depth + 1);
    return out;
  }
  return { __unrepresentable__: t };
}

function errorRecord(err) {
  const name = err && err.name ? String(err.name) : typeof err;
  const message = err && err.message !== undefined ? String(err.message) : String(err);
  return {
    status: "error",
    error: name,
    message: message.slice(0, 500),
    type_error: name === "TypeError",
    value_error: !BUG_ERRORS.has(name) && !/call stack size/.test(message),
  };
}

function isTimeout(err) {
  return err && err.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}

function main(argv) {
  const [solutionPath, casesPath, name, caseTimeout] = argv.slice(2, 6);
  const timeout = Math.max(1, Math.round(parseFloat(caseTimeout) * 1000));
  const source = fs.readFileSync(solutionPath, "utf8");
  const cases = JSON.parse(fs.readFileSync(casesPath, "utf8"));
  const sink = () => undefined;
  const sandboxConsole = { log: sink, error: sink, warn: sink, info: sink, debug: sink };
  const context = vm.createContext({ console: sandboxConsole, module: { exports: {} }, exports: {} });
  const footer = `\n;globalThis.__coonbench_fn = (typeof ${name} === "function") ? ${name} : ` +
    `(module && module.exports && typeof module.exports.${name} === "function" ? module.exports.${name} : ` +
    `(typeof module.exports === "function" ? module.exports : undefined));`;
  let script;
  try {
    new vm.Script(source, { filename: "solution.js" });
    script = new vm.Script(source + footer, { filename: "solution.js" });
  } catch (err) {
    let where = "";
    if (err && err.stack) {
      const m = /solution\.js:(\d+)/.exec(err.stack);
      if (m) where = ` (line ${m[1]})`;
    }
    return { stage: "parse", error: err && err.name ? err.name : "SyntaxError", message: String(err && err.message) + where };
  }
  try {
    script.runInContext(context, { timeout });
  } catch (err) {
    if (isTimeout(err)) return { stage: "load", status: "timeout", message: "defining the module timed out" };
    return { stage: "load", ...errorRecord(err) };
  }
  if (typeof context.__coonbench_fn !== "function") {
    return { stage: "load", status: "error", error: "ReferenceError", type_error: false, value_error: false,
      message: `no function named '${name}' is defined` };
  }
  const results = [];
  for (const c of cases) {
    context.__coonbench_args = JSON.stringify(c.input);
    context.__coonbench_then = c.then_call === undefined || c.then_call === null ? null : JSON.stringify(c.then_call);
    try {
      const value = vm.runInContext(
        "(() => { let r = __coonbench_fn(...JSON.parse(__coonbench_args));" +
        " if (__coonbench_then !== null) { if (typeof r !== 'function') throw new TypeError('expected a function to call, got ' + typeof r);" +
        " r = r(...JSON.parse(__coonbench_then)); } return r; })()",
        context, { timeout });
      results.push({ status: "ok", value: encode(value, 0) });
    } catch (err) {
      if (isTimeout(err)) results.push({ status: "timeout" });
      else results.push(errorRecord(err));
    }
  }
  return { stage: "run", cases: results };
}

let record;
try {
  record = main(process.argv);
} catch (err) {
  record = { stage: "harness", error: String(err && err.name), message: String(err && err.message) };
}
process.stdout.write("\n" + RESULT_MARKER + "\n" + JSON.stringify(record) + "\n");
