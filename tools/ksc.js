#!/usr/bin/env node
// Compile .ksy files to Python with the official Kaitai Struct compiler (npm `kaitai-struct-compiler`).
// Usage: node tools/ksc.js OUT_DIR FILE.ksy...   (imports resolve relative to the importing file)
// Run with NODE_PATH pointing at the folder that holds kaitai-struct-compiler and js-yaml.
"use strict";
const fs = require("fs");
const path = require("path");
const compiler = require("kaitai-struct-compiler");
const yaml = require("js-yaml");

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  console.error("usage: ksc.js OUT_DIR FILE.ksy...");
  process.exit(2);
}

function importerFor(baseDir) {
  return {
    importYaml(name, mode) {
      const file = path.isAbsolute(name) ? name + ".ksy" : path.join(baseDir, name + ".ksy");
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
      const out = await compiler.compile("python", ksy, importerFor(path.dirname(file)), false);
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
