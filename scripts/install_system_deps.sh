#!/usr/bin/env bash
# Install the optional system packages rankviz uses:
#   graphviz          -> the real `dot` (the app falls back to graphviz-pure without it)
#   chromium          -> headless browser for the end-to-end test (skipped without it)
#   fonts-dejavu-core -> a font for chromium and dot
# Only acts when running as root with apt-get available and something is missing.
# Never fails the build: on any problem it prints a one-line note and exits 0.
set -u

missing=()
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
{ command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; } || missing+=(chromium)
[ -d /usr/share/fonts/truetype/dejavu ] || missing+=(fonts-dejavu-core)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "note: not root, skipping system packages (missing: ${missing[*]}); install them with apt to enable dot/the browser test"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "note: apt-get not available, skipping system packages (missing: ${missing[*]})"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing system packages: ${missing[*]}"
if apt-get update -q </dev/null >/tmp/rankviz-apt.log 2>&1 \
   && apt-get install -y -q --no-install-recommends graphviz chromium fonts-dejavu-core \
        </dev/null >>/tmp/rankviz-apt.log 2>&1; then
    echo "system packages installed"
else
    echo "note: apt-get failed (see /tmp/rankviz-apt.log); continuing without: ${missing[*]}"
    tail -n 5 /tmp/rankviz-apt.log || true
fi
exit 0
