#!/usr/bin/env bash
# What the guard tests need beyond `pip install -e '.[test]'`, on a Debian machine:
#   - the official Kaitai Struct compiler (npm, into the git-ignored .kaitai/) for the
#     cross-check tests (tests/test_kaitai_ref.py and every test using its parsers);
#   - Debian's chromium, headless, for the screenshot tests of the README's pictures
#     (tests/test_draw.py::test_browser_renders_picture).
# The test run lists the tests it skipped for want of either, with this command. `.ci/run` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

npm install --prefix .kaitai --no-audit --no-fund --silent kaitai-struct-compiler@0.11.0 js-yaml@4.1.0

if ! command -v chromium >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
echo "test tools: $(node -e 'console.log(require("./.kaitai/node_modules/kaitai-struct-compiler/package.json").version)' 2>/dev/null || echo '?') kaitai-struct-compiler, $(chromium --version 2>/dev/null || echo 'no chromium')"
