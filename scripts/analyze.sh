#!/bin/sh
# scripts/analyze.sh: static analysis of the library, the utilities and
# the security server, with the two analyzers Debian ships:
#  - GCC's -fanalyzer, run over every C source of libselinux/src,
#    kernel/server and utils with the exact flags of build-an/'s
#    compile_commands.json (the object goes to /dev/null);
#  - clang's scan-build (package clang-tools, in debian-packages.txt)
#    over the same objects, compiled in a build dir of its own,
#    build-scan/.
# Neither build dir is shared with the other scripts (build/ is theirs).
#
#   scripts/analyze.sh          both
#   scripts/analyze.sh gcc      one of them (gcc | scan-build)
#   ANALYZE_REUSE=1 scripts/analyze.sh   filter the last run's results
#                               again (after editing analyze.ignore)
#
# Prints each finding as
#   file:line: function: message [kind]
# (kind is GCC's -Wanalyzer-* option or clang's checker name) and exits 1
# if any is left, 0 if none, 2 if an analyzer is missing or a source
# does not compile.  Logs and reports stay in build-an/analyze/.  Takes
# ~15 min on 2 busy cores (GCC 4, scan-build 11), hence not part of
# scripts/test.sh.
#
# A finding judged false is explained in a comment at the line it points
# to, or at the allocation for a leak ("analyzer: false positive (tool
# kind): why"), and listed in scripts/analyze.ignore,
# one per line, fields separated by blanks:
#   file function kind [text]
# file, function and kind must equal the finding's; text, the rest of the
# line, if given must be a substring of its message.  No line numbers, so
# edits elsewhere in the file leave the entry valid; the function and
# kind keep it from hiding a new finding of another kind or elsewhere.
# '#' starts a comment line.  An entry that matches nothing is reported
# as stale (and fails the run: remove it).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
what=${1:-all}
out=$top/build-an/analyze
export LC_ALL=C # plain quotes in GCC's messages: the parser reads them
status=0

[ -f build-an/compile_commands.json ] || meson setup build-an >/dev/null
ninja -C build-an build.ninja >/dev/null # compile_commands.json up to date
mkdir -p "$out"

# The compile commands of our sources, one per line: dir TAB object TAB
# command (test and benchmark variants of the same sources left out).
python3 - "$top" >"$out/cmds.new" <<'PY'
import json, shlex, sys
top = sys.argv[1]
for e in json.load(open(top + "/build-an/compile_commands.json")):
    rel = e["file"][3:] if e["file"].startswith("../") else e["file"]
    if not rel.startswith(("libselinux/src/", "kernel/server/", "utils/")):
        continue
    args = shlex.split(e["command"])
    obj = args[args.index("-o") + 1]
    if not obj.startswith(("libselinux/src/", "kernel/server/", "utils/")):
        continue
    keep, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MQ"):
            skip = True
        elif a not in ("-MD", "-fdiagnostics-color=always"):
            keep.append(a)
    # -O0: GCC 12's analyzer, at -O2, loses the NULL initialisation of
    # a _cleanup_ local once its cleanup is inlined, and reports each as
    # an uninitialised use in freep() (macro.h); at -O0 it sees the code
    # as written.
    keep += ["-O0", "-fanalyzer", "-fdiagnostics-color=never",
             "-o", "/dev/null"]
    print(e["directory"] + "\t" + obj + "\t" + shlex.join(keep))
PY
mv "$out/cmds.new" "$out/cmds" # a new file: a run in progress keeps its own

# report KIND FINDINGS: filter FINDINGS (file TAB line TAB function TAB
# kind TAB message) through analyze.ignore, print what is left, return 1
# if anything is left or an entry is stale.
report() {
	python3 - "$1" "$2" scripts/analyze.ignore <<'PY'
import sys
tool, found, ignore = sys.argv[1:4]
entries = []
try:
    for n, l in enumerate(open(ignore), 1):
        l = l.strip()
        if not l or l.startswith("#"):
            continue
        f = l.split(None, 3)
        if len(f) < 3:
            sys.exit(f"{ignore}:{n}: want: file function kind [text]")
        entries.append([f[0], f[1], f[2], f[3] if len(f) > 3 else "", 0, n])
except FileNotFoundError:
    pass
left = []
for l in sorted(set(open(found).read().splitlines())):
    file, line, func, kind, msg = l.split("\t", 4)
    hit = [e for e in entries
           if (e[0], e[1], e[2]) == (file, func, kind) and e[3] in msg]
    for e in hit:
        e[4] += 1
    if not hit:
        left.append(f"{file}:{line}: {func}: {msg} [{kind}]")
# entries are checked against the tool they name: -W... is GCC's
stale = [e for e in entries if e[4] == 0 and
         (e[2].startswith("-W") == (tool == "gcc"))]
print(f"{tool}: {len(left)} findings, {len(stale)} stale ignore entries")
for l in left:
    print(l)
for e in stale:
    print(f"{ignore}:{e[5]}: stale: {' '.join(e[:4]).strip()}")
sys.exit(1 if left or stale else 0)
PY
}

if [ "$what" = all ] || [ "$what" = gcc ]; then
	if [ -z "${ANALYZE_REUSE-}" ]; then
		: >"$out/gcc.log"
		while IFS="$(printf '\t')" read -r dir obj cmd; do
			(cd "$dir" && eval "$cmd") >>"$out/gcc.log" 2>&1 ||
				echo "analyze.sh: failed: $obj" >>"$out/gcc.log"
		done <"$out/cmds"
	fi
	# a source that does not compile is not analysed: say so, fail
	if grep -E '^analyze.sh: failed: ' "$out/gcc.log"; then
		echo "gcc -fanalyzer: compile errors (log: $out/gcc.log)" >&2
		exit 2
	fi
	# "file: In function 'f':" names the function of the warnings after
	# it; "In function 'g'," then "inlined from 'f' at ...", f too
	python3 - "$out/gcc.log" >"$out/gcc.found" <<'PY'
import os, re, sys
func = "-"
for l in open(sys.argv[1], errors="replace"):
    m = re.match(r"(?:\S+: )?In function '([^']+)'", l)
    if m:
        func = m.group(1)
        continue
    m = re.match(r"\s+inlined from '([^']+)'", l)
    if m:
        func = m.group(1)
        continue
    if re.match(r"\S+: At top level:", l):
        func = "-"
        continue
    m = re.match(r"(\S+):(\d+):\d+: warning: (.*) \[(-Wanalyzer[^]]*)\]$", l)
    if m:
        file = os.path.normpath(m.group(1))
        file = file[3:] if file.startswith("../") else file
        msg = re.sub(r" \[CWE-\d+\]$", "", m.group(3))
        print("\t".join((file, m.group(2), func, m.group(4), msg)))
PY
	echo "gcc -fanalyzer: $(wc -l <"$out/cmds") sources (log: $out/gcc.log)"
	report gcc "$out/gcc.found" || status=1
fi

if [ "$what" = all ] || [ "$what" = scan-build ]; then
	command -v scan-build >/dev/null || {
		echo "scan-build missing (clang-tools): run scripts/setup.sh" >&2
		exit 2
	}
	if [ -z "${ANALYZE_REUSE-}" ]; then
		rm -rf build-scan "$out/scan"
		scan-build meson setup build-scan >/dev/null
		# only the objects of our sources: no tests, benchmarks, policies
		cut -f2 "$out/cmds" | xargs scan-build -plist -o "$out/scan" \
			ninja -j2 -C build-scan >"$out/scan.log" 2>&1 || {
			echo "scan-build: the build failed (log: $out/scan.log)" >&2
			exit 2
		}
	fi
	# clang 14 does not model __attribute__((cleanup)): each _cleanup_
	# local that holds memory at a return is a "potential leak" to it.
	# Those (and only those) are set aside in scan.cleanup, unreported;
	# the GCC pass, which does model cleanups, still checks them.
	python3 - "$top" "$out/scan" "$out/scan.cleanup" >"$out/scan.found" <<'PY'
import glob, os, plistlib, re, sys
top = sys.argv[1]
cleanup = open(sys.argv[3], "w")

def cleanup_local(file, line, func, msg):
    m = re.match(r"Potential leak of memory pointed to by '(\w+)'$", msg)
    if not m:
        return False
    # the variable's declaration in func's body (found by name, not by
    # line: the file may have changed since it was analysed)
    src = open(os.path.join(top, file), errors="replace").read()
    body = re.search(r"^[A-Za-z_][^;{]*\b%s\([^;{]*\)\s*\{.*?^\}"
                     % re.escape(func), src, re.M | re.S)
    decl = r"\b_cleanup_\w*(\(\w+\))?\s[^;]*\*\s*%s\s*[=;,]" % m.group(1)
    return bool(body and re.search(decl, body.group(0)))

for p in glob.glob(sys.argv[2] + "/**/*.plist", recursive=True):
    d = plistlib.load(open(p, "rb"))
    for diag in d.get("diagnostics", []):
        loc = diag["location"]
        file = os.path.relpath(
            os.path.normpath(os.path.join(top, "build-scan",
                                          d["files"][loc["file"]])), top)
        f = "\t".join((file, str(loc["line"]),
                       diag.get("issue_context") or "-",
                       diag["check_name"], diag["description"]))
        if cleanup_local(file, loc["line"], diag.get("issue_context") or "-",
                         diag["description"]):
            print(f, file=cleanup)
        else:
            print(f)
PY
	echo "scan-build: $(wc -l <"$out/cmds") sources (log: $out/scan.log, reports: $out/scan)"
	echo "scan-build: $(sort -u "$out/scan.cleanup" | wc -l) leaks of _cleanup_ locals set aside ($out/scan.cleanup)"
	report scan-build "$out/scan.found" || status=1
fi
exit "$status"
