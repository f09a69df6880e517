#!/usr/bin/env bash
# Installs Debian's chromium for the HTML report's browser test, and nothing else: only as root, only
# when apt-get can add it without upgrading a package the machine already has, and it says so first.
# Where it cannot, the browser test is skipped and the suite's closing line counts it.
set -uo pipefail
chromium=${TAU_RESCORE_CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] && exit 0
skip() { echo "browser test will be skipped: $1" >&2; exit 0; }
command -v apt-get >/dev/null || skip "$chromium missing and no apt-get"
[ "$(id -u)" = 0 ] || skip "$chromium missing; install it as root: apt-get install --no-install-recommends chromium"
echo "chromium missing: refreshing Debian's package lists (apt-get update) to install it" >&2
apt-get update -qq >&2 || skip "apt-get update failed"
plan=$(apt-get install -s --no-install-recommends chromium 2>&1) || skip "apt-get cannot install chromium"
# A simulated "Inst name [installed version] (new version)" is an upgrade of an installed package.
upgrades=$(grep -cE '^Inst [^ ]+ \[' <<<"$plan")
[ "$upgrades" = 0 ] || skip "installing chromium would upgrade $upgrades installed packages"
new=$(grep -cE '^Inst ' <<<"$plan")
echo "installing chromium for the report's browser test: $new new Debian packages, no upgrades" >&2
apt-get install -y -qq --no-install-recommends --no-upgrade chromium >&2 || skip "apt-get install chromium failed"
