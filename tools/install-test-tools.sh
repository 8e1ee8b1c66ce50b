#!/usr/bin/env bash
# What the guard tests need beyond `pip install -e '.[test]'`, on a Debian machine:
#   - the official Kaitai Struct compiler (npm, into the git-ignored .kaitai/) for the
#     cross-check tests (tests/test_kaitai_ref.py and every test using its parsers);
#   - Debian's chromium, headless, for the screenshot tests of the README's pictures
#     (tests/test_draw.py::test_browser_renders_picture);
#   - Debian's flatc (flatbuffers-compiler), whose generated classes are the reference reader of
#     .espdl models (tests/test_espdl_decoder.py, tests/test_espdl_narrow.py).
# The test run lists the tests it skipped for want of any of them, with this command. `.ci/run` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

npm install --prefix .kaitai --no-audit --no-fund --silent kaitai-struct-compiler@0.11.0 js-yaml@4.1.0

missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v flatc >/dev/null 2>&1 || missing="$missing flatbuffers-compiler"
if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
echo "test tools: $(node -e 'console.log(require("./.kaitai/node_modules/kaitai-struct-compiler/package.json").version)' 2>/dev/null || echo '?') kaitai-struct-compiler, $(chromium --version 2>/dev/null || echo 'no chromium'), $(flatc --version 2>/dev/null || echo 'no flatc')"
