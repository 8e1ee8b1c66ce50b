#!/usr/bin/env node
// Compile .ksy files to Python with the official Kaitai Struct compiler (npm `kaitai-struct-compiler`).
// Usage: node tools/ksc.js [--read-write] [--debug] [--import-path DIR]... OUT_DIR FILE.ksy...
// --read-write: classes that also write (ReadWriteKaitaiStruct: _check, _write), as `ksc --read-write`
// makes them; the npm package's JS API has no such switch, so its one config line is flipped on load.
// --debug: Kaitai's debug mode (the classes record where each field starts and ends in `_debug`; call `_read()`).
// Relative imports resolve against the importing file's folder, absolute ones (`/name`) against each --import-path.
// Run with NODE_PATH pointing at the folder that holds kaitai-struct-compiler and js-yaml.
"use strict";
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");

const args = process.argv.slice(2);
const flags = new Set();
while (args[0] === "--read-write" || args[0] === "--debug") flags.add(args.shift());  // leading switches, any order
const readWrite = flags.has("--read-write");
const debug = flags.has("--debug");
const compiler = readWrite ? readWriteCompiler() : require("kaitai-struct-compiler");
const importPaths = [];
while (args[0] === "--import-path" && args.length > 1) {
  importPaths.push(args[1]);
  args.splice(0, 2);
}
const [outDir, ...files] = args;
if (!outDir || files.length === 0) {
  console.error("usage: ksc.js [--import-path DIR]... OUT_DIR FILE.ksy...");
  process.exit(2);
}

function readWriteCompiler() {
  const Module = require("module");
  const file = require.resolve("kaitai-struct-compiler");
  const config = "new $c_Lio_kaitai_struct_RuntimeConfig((!debug), debug, false, true, false, ";
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(config)) {
    console.error("--read-write: this kaitai-struct-compiler's JS API config line is not the one expected");
    process.exit(2);
  }
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(path.dirname(file));
  m._compile(text.replace(config, "new $c_Lio_kaitai_struct_RuntimeConfig((!debug), debug, false, true, true, "),
             file);
  return m.exports;
}

function importerFor(baseDir) {
  return {
    importYaml(name, mode) {
      let file = path.isAbsolute(name) ? name + ".ksy" : path.join(baseDir, name + ".ksy");
      if (mode === "abs") {
        const found = importPaths.map((dir) => path.join(dir, name + ".ksy")).find((f) => fs.existsSync(f));
        if (!found) return Promise.reject(new Error(`cannot find /${name}.ksy in the import paths`));
        file = found;
      }
      return Promise.resolve(yaml.load(fs.readFileSync(file, "utf8")));
    },
  };
}

(async () => {
  fs.mkdirSync(outDir, { recursive: true });
  let failed = 0;
  for (const file of files) {
    try {
      const ksy = yaml.load(fs.readFileSync(file, "utf8"));
      const out = await compiler.compile("python", ksy, importerFor(path.dirname(file)), debug);
      for (const [name, text] of Object.entries(out)) {
        fs.writeFileSync(path.join(outDir, name), text);
        console.log(name);
      }
    } catch (err) {
      failed += 1;
      console.error(`${file}: ${err && err.message ? err.message : err}`);
    }
  }
  process.exit(failed ? 1 : 0);
})();
