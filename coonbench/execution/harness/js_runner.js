// Worker for the JavaScript target: loads the candidate function, then answers one test input at a time.
// Self-contained (Node built-ins only). Usage: node js_runner.js SOLUTION NAME CASE_TIMEOUT_S, started by
// supervise.py. Protocol: one JSON line on stdout after loading ({"stage": "ready"} or the parse/load error),
// then for each JSON line {"input": [...], "then_call": ...} on stdin one JSON line with the case result.
// The solution runs in a fresh vm context (no require, no process; not a security boundary — the sandbox
// and supervise.py are); each call has a vm timeout. The worker never sees expected outputs.
"use strict";
const fs = require("fs");
const vm = require("vm");
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

function load(solutionPath, name, timeout) {
  const source = fs.readFileSync(solutionPath, "utf8");
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
    return [{ stage: "parse", error: err && err.name ? err.name : "SyntaxError", message: String(err && err.message) + where }, null];
  }
  try {
    script.runInContext(context, { timeout });
  } catch (err) {
    if (isTimeout(err)) return [{ stage: "load", status: "timeout", message: "defining the module timed out" }, null];
    return [{ stage: "load", ...errorRecord(err) }, null];
  }
  if (typeof context.__coonbench_fn !== "function") {
    return [{ stage: "load", status: "error", error: "ReferenceError", type_error: false, value_error: false,
      message: `no function named '${name}' is defined` }, null];
  }
  return [{ stage: "ready" }, context];
}

function runCase(context, c, timeout) {
  context.__coonbench_args = JSON.stringify(c.input);
  context.__coonbench_then = c.then_call === undefined || c.then_call === null ? null : JSON.stringify(c.then_call);
  try {
    const value = vm.runInContext(
      "(() => { let r = __coonbench_fn(...JSON.parse(__coonbench_args));" +
      " if (__coonbench_then !== null) { if (typeof r !== 'function') throw new TypeError('expected a function to call, got ' + typeof r);" +
      " r = r(...JSON.parse(__coonbench_then)); } return r; })()",
      context, { timeout });
    return { status: "ok", value: encode(value, 0) };
  } catch (err) {
    if (isTimeout(err)) return { status: "timeout" };
    return errorRecord(err);
  }
}

function answer(record) {
  let text;
  try {
    text = JSON.stringify(record);
  } catch (err) {
    text = JSON.stringify(errorRecord(err));
  }
  const data = Buffer.from(text + "\n", "utf8");
  let off = 0;
  while (off < data.length) off += fs.writeSync(1, data, off);
}

function* inputLines() {
  const buf = Buffer.alloc(65536);
  let pending = "";
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      if (err.code === "EAGAIN") continue;
      if (err.code === "EOF") return;
      throw err;
    }
    if (n === 0) return;
    pending += buf.toString("utf8", 0, n);
    let nl;
    while ((nl = pending.indexOf("\n")) >= 0) {
      yield pending.slice(0, nl);
      pending = pending.slice(nl + 1);
    }
  }
}

function main(argv) {
  const [solutionPath, name, caseTimeout] = argv.slice(2, 5);
  const timeout = Math.max(1, Math.round(parseFloat(caseTimeout) * 1000));
  const [record, context] = load(solutionPath, name, timeout);
  answer(record);
  if (context === null) return;
  for (const line of inputLines()) answer(runCase(context, JSON.parse(line), timeout));
}

main(process.argv);
