#!/bin/sh
# check-man.sh: lint the man pages and check them against rcuqs-ctl.
#
# - mandoc -Tlint (at its default level, style messages included) and
#   groff -ww -z -man: no output at all; rendered 80 columns wide, no line
#   (an example, say) is wider;
# - sections in the conventional order;
# - rcuqs-ctl(8) against the built tool: every command, its arguments and
#   every option of usage(), in usage()'s order, and nothing more; every exit
#   code of rcuqs.h, and the codes the tool really returns; every file path
#   the tool's sources name;
# - every tunable the tool knows and every shipped profile (with each of its
#   settings) in rcuqs.profile(5), and in rcuqs(7);
# - set-profile on a stock kernel exits 3 and writes nothing, and README,
#   rcuqs(7) and debian/control say so; set-profile --stage there records
#   the profile and writes the boot form, no parameter, and README,
#   rcuqs(7) and doc/install.md say so; the README's quick start for a real
#   machine, its way back the same as rcuqs(7)'s ROLLBACK, and exactly two
#   set-up commands for the development harness;
# - every measured figure that README, the shipped profiles, rcuqs(7),
#   thresholds.c, the 6.1 cover letter and patch 2 quote (doc/bench-quotes) is
#   doc/bench-figures' value, and no "will come from the benchmark" is left;
# - doc/ansible/rcuqs.yml runs only commands and options of usage(), and
#   passes ansible-playbook --syntax-check (skipped without ansible-core).
# Self-tests run the same checks on broken copies and expect them to fail.
# Parts that need the tool SKIP, saying why, until rcuqs-ctl builds.
#
# TAP goes to $RESULTS/man.tap (and stdout). Exit 1 if any test failed.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
scratch=$BUILD/man-check
tap=$RESULTS/man.tap
tool_src=$top/rcuqs-ctl
dump_awk=$here/tests/roff-dump.awk
PAGES="rcuqs-ctl.8 rcuqs.profile.5 rcuqs.7"

mkdir -p "$RESULTS"
rm -rf "$scratch"
mkdir -p "$scratch"
: >"$tap"

. "$top/scripts/tap.sh"

# --- page reading ------------------------------------------------------------

# dump PAGE: records "SECTION<TAB>SUBSECTION<TAB>TAG<TAB>KIND<TAB>TEXT".
dump() { awk -f "$dump_awk" "$1"; }
# tags PAGE SECTION [SUBSECTION]: the .TP tags of a section, in order.
tags() {
	dump "$1" | awk -F'\t' -v s="$2" -v ss="${3-}" \
		'$1 == s && (ss == "" || $2 == ss) && $4 == "tag" { print $5 }'
}
# body PAGE SECTION SUBSECTION TAG: the text of the paragraph tagged TAG.
body() {
	dump "$1" | awk -F'\t' -v s="$2" -v ss="$3" -v t="$4" \
		'$1 == s && $2 == ss && $3 == t && $4 == "text" { print $5 }'
}
# section_text PAGE SECTION: all text of a section, tags included.
section_text() {
	dump "$1" | awk -F'\t' -v s="$2" '$1 == s && $4 != "sh" { print $5 }'
}
# synopsis_lines PAGE: one line per .SY block of SYNOPSIS.
synopsis_lines() {
	dump "$1" | awk -F'\t' '
		$1 == "SYNOPSIS" && $4 == "sy" { if (l != "") print l; l = $5; next }
		$1 == "SYNOPSIS" && $4 == "text" && l != "" { l = l " " $5 }
		END { if (l != "") print l }'
}
squeeze() { tr -s ' \t' '  ' | sed 's/^ //; s/ $//'; }

# --- checks (each takes the page, so self-tests can feed broken copies) -----

lint_mandoc() {
	msg=$(mandoc -Tlint "$1" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] && [ -z "$msg" ] && return 0
	echo "mandoc exit $rc"
	echo "$msg"
	return 1
}
lint_groff() {
	msg=$(groff -ww -z -man "$1" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] && [ -z "$msg" ] && return 0
	echo "groff exit $rc"
	echo "$msg"
	return 1
}

# width_80 PAGE: rendered for an 80-column terminal, every line fits.
width_80() {
	mandoc -Tascii -Owidth=80 "$1" | col -bx |
		awk 'length($0) > 80 { print length($0) " columns: " $0; bad = 1 } END { exit bad }'
}

ORDER="NAME|SYNOPSIS|DESCRIPTION|COMMANDS|OPTIONS|FILES|EXIT STATUS|ENVIRONMENT|EXAMPLES|SEE ALSO"
# section_order PAGE [all]: the conventional sections that the page has come
# in ORDER, NAME first and SEE ALSO last; with "all", every one is present.
section_order() {
	dump "$1" | awk -F'\t' '$4 == "sh" { print $5 }' >"$scratch/sh"
	awk -v order="$ORDER" -v all="${2-}" -v page="$1" '
		BEGIN { n = split(order, o, "|"); for (i = 1; i <= n; i++) rank[o[i]] = i }
		{ names[++m] = $0 }
		END {
			if (names[1] != "NAME") { print page ": first section is " names[1]; bad = 1 }
			if (names[m] != "SEE ALSO") { print page ": last section is " names[m]; bad = 1 }
			last = 0
			for (i = 1; i <= m; i++) {
				if (!(names[i] in rank)) continue
				seen[names[i]] = 1
				if (rank[names[i]] < last) { print page ": " names[i] " after " o[last]; bad = 1 }
				last = rank[names[i]]
			}
			if (all == "all")
				for (i = 1; i <= n; i++)
					if (!(o[i] in seen)) { print page ": no " o[i] " section"; bad = 1 }
			exit bad
		}' "$scratch/sh"
}

# help_block WORD: the lines of the tool's --help under "WORD:".
help_block() {
	awk -v h="$1:" '$0 == h { on = 1; next } /^[^ ]/ || /^$/ { on = 0 } on' "$scratch/help"
}
# help_commands: "name args" of each command of usage(), in order.
help_commands() {
	help_block Commands | sed 's/^ *//' | awk -F'  +' '{ print $1 }' | squeeze
}
# help_options: "-x, --long ARG" of each option of usage(), in order.
help_options() {
	help_block Options | sed 's/^ *//' | awk -F'  +' '{ print $1 }' | squeeze
}

# playbook_commands FILE: every "rcuqs-ctl ..." command of a playbook
# (folded ">-" lines joined) names a command of usage(), options before
# it among usage()'s options, and options after it among that command's
# arguments; a Jinja "{{ ... }}" counts as the '--option' literals in it.
playbook_commands() {
	awk '
		/^ *- name:/ || /^ *[a-z_.]+:/ && !/command:/ { if (cmd != "") print cmd; cmd = "" }
		fold && /^ *[a-z_]+:/ { fold = 0 }
		fold { sub(/^ */, ""); cmd = cmd " " $0; next }
		/command: >-$/ { fold = 1; cmd = ""; next }
		/command: rcuqs-ctl / { sub(/.*command: /, ""); print; next }
		END { if (cmd != "") print cmd }' "$1" |
		sed -E "s/\{\{[^}]*'(--[a-z-]+)'[^}]*\}\}/\1/g; s/\{\{[^}]*\}\}//g" |
		grep '^ *rcuqs-ctl ' >"$scratch/playbook-cmds"
	[ -s "$scratch/playbook-cmds" ] || { echo "no rcuqs-ctl command found in $1"; return 1; }
	bad=0
	while read -r line; do
		cmd="" args=""
		set -- $line
		shift
		for w; do
			if [ -z "$cmd" ]; then
				case $w in
				-*) help_options | grep -Eq -- "(^| )$w( |,|$)" ||
					{ echo "'$line': global option '$w' is not in usage()"; bad=1; } ;;
				*) cmd=$w
				   args=$(help_commands | awk -v c="$cmd" '$1 == c')
				   [ -n "$args" ] || { echo "'$line': command '$cmd' is not in usage()"; bad=1; } ;;
				esac
			else
				case $w in
				-*) printf '%s\n' "$args" | grep -Fq -- "[$w" || printf '%s\n' "$args" | grep -Fq -- "$w " ||
					help_options | grep -Eq -- "(^| )$w( |,|$)" ||
					{ echo "'$line': option '$w' of $cmd is not in usage()"; bad=1; } ;;
				esac
			fi
		done
	done <"$scratch/playbook-cmds"
	return $bad
}

# same_list WHAT WANT-FILE GOT-FILE: equal, in order; else show both.
same_list() {
	cmp -s "$2" "$3" && return 0
	echo "$1 differ (- usage(), + man page):"
	diff -u "$2" "$3" | sed -n '3,$p'
	return 1
}

# commands_match PAGE: COMMANDS tags == usage() commands with their args.
commands_match() {
	help_commands >"$scratch/want"
	tags "$1" COMMANDS | squeeze >"$scratch/got"
	[ -s "$scratch/want" ] || { echo "no commands parsed from --help"; return 1; }
	same_list "commands" "$scratch/want" "$scratch/got"
}
# synopsis_match PAGE: a SYNOPSIS line ends in each command with its args,
# and every SYNOPSIS command is one of usage()'s.
synopsis_match() {
	synopsis_lines "$1" | squeeze >"$scratch/syn"
	bad=0
	while IFS= read -r c; do
		grep -Fq -- " $c" "$scratch/syn" &&
			awk -v c="$c" 'substr($0, length($0) - length(c) + 1) == c { f = 1 } END { exit !f }' \
				"$scratch/syn" ||
			{ echo "SYNOPSIS has no line for '$c'"; bad=1; }
	done <"$scratch/want"
	while IFS= read -r l; do
		w=$(printf '%s\n' "$l" | awk '{ for (i = 2; i <= NF; i++) if ($i !~ /^[[-]/ && $i != "DIR]") { print $i; exit } }')
		case $w in "" | -* | COMMAND) continue ;; esac
		grep -q "^$w\( \|\$\)" "$scratch/want" ||
			{ echo "SYNOPSIS line '$l': '$w' is not a command of usage()"; bad=1; }
	done <"$scratch/syn"
	return $bad
}
# options_match PAGE: OPTIONS tags == usage() options, same order and args.
options_match() {
	help_options >"$scratch/want-opt"
	tags "$1" OPTIONS | squeeze >"$scratch/got-opt"
	[ -s "$scratch/want-opt" ] || { echo "no options parsed from --help"; return 1; }
	same_list "options" "$scratch/want-opt" "$scratch/got-opt"
}
# exit_codes_match PAGE: EXIT STATUS tags == the codes of rcuqs.h's enum.
exit_codes_match() {
	grep -oE 'EXIT_[A-Z]+ *= *[0-9]+' "$tool_src/rcuqs.h" | sed 's/.*= *//' |
		sort -n >"$scratch/want-exit"
	tags "$1" "EXIT STATUS" | sort -n >"$scratch/got-exit"
	[ -s "$scratch/want-exit" ] || { echo "no EXIT_ codes in rcuqs.h"; return 1; }
	same_list "exit codes" "$scratch/want-exit" "$scratch/got-exit"
}
# files_match PAGE: every absolute path the tool's sources name, and the
# sysfs directories of its tunables and counters, are in FILES.
files_match() {
	section_text "$1" FILES >"$scratch/files"
	{
		cat "$tool_src"/*.c "$tool_src"/*.h | grep -oE '"/(etc|run|usr|proc|lib)/[^"]*"' |
			tr -d '"' | sed 's/%s.*//'
		grep -ohE '"(module|kernel)/[^"]*/' "$tool_src"/*.c | tr -d '"' | sed 's|^|/sys/|'
	} | sort -u >"$scratch/want-files"
	bad=0
	while IFS= read -r p; do
		grep -Fq -- "$p" "$scratch/files" || { echo "FILES does not name $p"; bad=1; }
	done <"$scratch/want-files"
	return $bad
}

# The tool's tunables: the .name strings of tunables.c.
tool_tunables() { grep -oE '\.name = "[^"]+"' "$tool_src/tunables.c" | cut -d'"' -f2; }
# tunables_match PAGE5 PAGE7: each tunable is a tag in rcuqs.profile(5)'s
# Tunables and appears in a tag of rcuqs(7) TUNABLES; (5) lists no others.
tunables_match() {
	tool_tunables | sort >"$scratch/want-tun"
	tags "$1" DESCRIPTION Tunables | sort >"$scratch/got-tun"
	[ -s "$scratch/want-tun" ] || { echo "no tunables parsed from tunables.c"; return 1; }
	same_list "tunables of rcuqs.profile(5)" "$scratch/want-tun" "$scratch/got-tun" || return 1
	tags "$2" TUNABLES | tr ',' '\n' | squeeze >"$scratch/got-tun7"
	while IFS= read -r t; do
		grep -Fqx -- "$t" "$scratch/got-tun7" || { echo "rcuqs(7) TUNABLES lacks $t"; return 1; }
	done <"$scratch/want-tun"
}

# profiles_match PAGE5 PAGE7: every shipped profile is a tag in (5)'s
# "Shipped profiles" whose text names each of its PARAM=VALUE settings
# (each alternative of a line "A=x || B=y" on its own), and a tag (first
# word) of (7)'s CHOOSING A PROFILE; (5) describes no others.
profiles_match() {
	ls "$tool_src/profiles" | sed -n 's/\.profile$//p' | sort >"$scratch/want-prof"
	tags "$1" DESCRIPTION "Shipped profiles" | sort >"$scratch/got-prof"
	same_list "shipped profiles" "$scratch/want-prof" "$scratch/got-prof" || return 1
	tags "$2" "CHOOSING A PROFILE" | awk '{ sub(/,$/, "", $1); print $1 }' >"$scratch/got-prof7"
	bad=0
	while IFS= read -r p; do
		grep -Fqx -- "$p" "$scratch/got-prof7" ||
			{ echo "rcuqs(7) CHOOSING A PROFILE lacks $p"; bad=1; }
		body "$1" DESCRIPTION "Shipped profiles" "$p" | tr '\n' ' ' >"$scratch/pbody"
		grep -vE '^[[:space:]]*(#|$)' "$tool_src/profiles/$p.profile" |
			grep -vE '^[[:space:]]*(description|include)[[:space:]]*=' |
			sed 's/[[:space:]]*||[[:space:]]*/\n/g' |
			sed 's/[[:space:]]*=[[:space:]]*/=/; s/^[[:space:]]*//; s/[[:space:]]*$//' |
			while IFS= read -r kv; do
				grep -Fq -- "$kv" "$scratch/pbody" ||
					{ echo "rcuqs.profile(5) on '$p' does not say $kv"; exit 1; }
			done || bad=1
		inc=$(sed -n 's/^[[:space:]]*include[[:space:]]*=[[:space:]]*//p' \
			"$tool_src/profiles/$p.profile")
		if [ -n "$inc" ] && ! grep -Fq -- "$inc" "$scratch/pbody"; then
			echo "rcuqs.profile(5) on '$p' does not say it includes $inc"
			bad=1
		fi
	done <"$scratch/want-prof"
	return $bad
}

# examples_accepted PAGE5: write each example profile into a fresh fake root
# and run "rcuqs-ctl show" on it; all must succeed, and there must be some.
examples_accepted() {
	ex=$scratch/exroot
	rm -rf "$ex"
	mkdir -p "$ex/etc/rcuqs/profiles" "$ex/usr/lib/rcuqs/profiles" "$ex/run"
	cp "$tool_src"/profiles/*.profile "$ex/usr/lib/rcuqs/profiles/" 2>/dev/null
	dump "$1" | awk -F'\t' -v dir="$ex" '
		$1 != "EXAMPLES" { next }
		$4 == "ex" { first = 1; f = ""; next }
		$4 == "ee" { if (f != "") close(f); f = ""; next }
		$4 == "text" && first {
			first = 0
			if ($5 ~ /^# \/etc\/rcuqs\/profiles\/[A-Za-z0-9_.-]+\.profile$/) {
				f = dir substr($5, 3); print f > "/dev/stderr"; next
			}
		}
		$4 == "text" && f != "" { print $5 > f }' 2>"$scratch/examples"
	[ -s "$scratch/examples" ] || { echo "no example profiles found in EXAMPLES"; return 1; }
	chmod 0644 "$ex"/etc/rcuqs/profiles/* "$ex"/usr/lib/rcuqs/profiles/*
	chmod 0755 "$ex/etc/rcuqs/profiles" "$ex/usr/lib/rcuqs/profiles"
	bad=0
	while IFS= read -r f; do
		name=$(basename "$f" .profile)
		"$tool" --root "$ex" show "$name" >"$scratch/show.out" 2>&1 ||
			{ echo "example '$name' refused:"; cat "$scratch/show.out"; bad=1; }
	done <"$scratch/examples"
	return $bad
}

# counters_match PAGE7 PAGE8: the counters the kernel series create
# (__ATTR_RO(NAME) in the patches of every baseline, 7.3's too) are exactly the tags of rcuqs(7)'s
# CONFIRMING THE EFFECT, and each is named in rcuqs-ctl(8)'s FILES.
counters_match() {
	cat "$top"/kernel-patches/*/*.patch | grep -oE '^\+.*__ATTR_RO\([a-z_]+\)' |
		sed 's/.*__ATTR_RO(//; s/)$//' | sort -u >"$scratch/want-cnt"
	[ -s "$scratch/want-cnt" ] || { echo "no __ATTR_RO counters in kernel-patches/"; return 1; }
	tags "$1" "CONFIRMING THE EFFECT" | sort >"$scratch/got-cnt"
	same_list "counters (- kernel series, + rcuqs(7))" "$scratch/want-cnt" "$scratch/got-cnt" ||
		return 1
	section_text "$2" FILES >"$scratch/files8"
	while IFS= read -r c; do
		grep -Fq -- "$c" "$scratch/files8" || { echo "rcuqs-ctl(8) FILES lacks counter $c"; return 1; }
	done <"$scratch/want-cnt"
}

# thresholds_match PAGE7: the tags of rcuqs(7) RECOMMENDATION THRESHOLDS
# are "NAME VALUEUNIT" of rcuqs-ctl's thresholds.c, every entry, same order.
thresholds_match() {
	sed -n 's/^.*{ "\([a-z_]*\)", \([0-9.]*\), "\([^"]*\)",.*$/\1 \2\3/p' \
		"$tool_src/thresholds.c" >"$scratch/want-thr"
	[ -s "$scratch/want-thr" ] || { echo "no thresholds in thresholds.c"; return 1; }
	tags "$1" "RECOMMENDATION THRESHOLDS" | squeeze >"$scratch/got-thr"
	same_list "thresholds (- thresholds.c, + rcuqs(7))" "$scratch/want-thr" "$scratch/got-thr"
}

# counter_example PAGE7: the first example of rcuqs(7) EXAMPLES (take the
# counters over 10 s, print rates and callbacks per grace period) runs as
# printed against fake counters, "sleep 10" standing for the workload, and
# prints the right numbers.
counter_example() {
	cdir=$scratch/rcu_qs
	rm -rf "$cdir"
	mkdir -p "$cdir"
	for kv in gp_completed=100 cbs_invoked=5000 limit_qs=0 urgent_qs=3 resched_kicks=1; do
		echo "${kv#*=}" >"$cdir/${kv%=*}"
	done
	dump "$1" | awk -F'\t' '
		$1 != "EXAMPLES" { next }
		$4 == "ex" { n++; next }
		$4 == "ee" && n == 1 { exit }
		$4 == "text" && n == 1 { sub(/^\$ /, "", $5); print $5 }' >"$scratch/example.sh"
	grep -q 'sleep 10' "$scratch/example.sh" || { echo "example has no 'sleep 10'"; return 1; }
	# The workload: 50 grace periods, 4000 callbacks, 4 urgent requests.
	printf '%s\n' 'sleep() { echo 150 >gp_completed; echo 9000 >cbs_invoked; echo 7 >urgent_qs; }' \
		>"$scratch/example-run.sh"
	sed "s|/sys/kernel/rcu_qs|$cdir|g; s|/tmp/rcuqs\\.|$scratch/rcuqs.|g" "$scratch/example.sh" \
		>>"$scratch/example-run.sh"
	got=$(cd "$scratch" && LC_ALL=C sh "$scratch/example-run.sh" 2>&1)
	want="cbs_invoked 400.0/s
gp_completed 5.0/s
limit_qs 0.0/s
resched_kicks 0.0/s
urgent_qs 0.4/s
callbacks per grace period 80.0"
	[ "$got" = "$want" ] || { printf 'example printed:\n%s\nwant:\n%s\n' "$got" "$want"; return 1; }
}

# --- lint ----------------------------------------------------------------------

out "# man: $(mandoc -V 2>/dev/null || echo mandoc), $(groff -v 2>/dev/null | sed -n 1p)"
for p in $PAGES; do
	check "mandoc -Tlint $p: no messages, style included" lint_mandoc "$here/$p"
	check "$p fits 80 columns" width_80 "$here/$p"
	if command -v groff >/dev/null 2>&1; then
		check "groff -ww -z -man $p: no warnings" lint_groff "$here/$p"
	else
		skip "groff -ww -z -man $p" "groff is not installed (mandoc alone lints)"
	fi
done
check "rcuqs-ctl.8: all ten sections, in order" section_order "$here/rcuqs-ctl.8" all
check "rcuqs.profile.5: sections in order" section_order "$here/rcuqs.profile.5"
check "rcuqs.7: sections in order" section_order "$here/rcuqs.7"

inst_check() {
	make -s -C "$here" install DESTDIR="$scratch/inst" || return 1
	got=$(cd "$scratch/inst" && find . -type f -printf '%p %m\n' | sort | tr '\n' ' ')
	want="./usr/share/man/man5/rcuqs.profile.5 644 ./usr/share/man/man7/rcuqs.7 644 ./usr/share/man/man8/rcuqs-ctl.8 644 ./usr/share/man/man8/rcuqs-kernel.8 644 "
	[ "$got" = "$want" ] || { echo "installed: $got; want: $want"; return 1; }
}
check "make install puts the pages in /usr/share/man/man{5,7,8}, mode 0644" inst_check

# units_named: every rcuqs unit the pages name is a file in systemd-units/
# (an instance rcuqs-profile@NAME.service by its template).
units_named() {
	names=$(for p in "$@"; do dump "$p" | cut -f5; done |
		grep -oE 'rcuqs[-a-zA-Z0-9_.@]*\.service' | sed 's/@[^.]*\(\.[^.]*\)*\.service$/@.service/' |
		sort -u)
	[ -n "$names" ] || { echo "the pages name no rcuqs unit"; return 1; }
	for u in $names; do
		[ -f "$top/systemd-units/$u" ] || { echo "pages name $u: no systemd-units/$u"; return 1; }
	done
}
check "every rcuqs unit the pages name exists in systemd-units/" \
	units_named "$here/rcuqs-ctl.8" "$here/rcuqs.profile.5" "$here/rcuqs.7"

# --- against the tool ------------------------------------------------------------

tool=
if [ -f "$tool_src/Makefile" ]; then
	# Build a copy: never race the tool's own build in its folder.
	mkdir -p "$scratch/tool"
	cp -a "$tool_src/." "$scratch/tool/"
	# BUILD too: the tool keeps its objects in $(BUILD), shared otherwise.
	if make -s -C "$scratch/tool" BUILD="$scratch/tool-build" \
		>"$scratch/tool-build.log" 2>&1 &&
		[ -x "$scratch/tool/rcuqs-ctl" ]; then
		tool=$scratch/tool/rcuqs-ctl
	else
		why="rcuqs-ctl does not build yet: $(tail -n 1 "$scratch/tool-build.log")"
	fi
else
	why="rcuqs-ctl has no Makefile yet"
fi

page8=$here/rcuqs-ctl.8
page5=$here/rcuqs.profile.5
page7=$here/rcuqs.7
if [ -n "$tool" ]; then
	"$tool" --help >"$scratch/help" 2>"$scratch/help.err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ -s "$scratch/help" ] && [ ! -s "$scratch/help.err" ]; then
		ok "rcuqs-ctl --help: usage() on stdout, nothing on stderr, exit 0"
	else
		not_ok "rcuqs-ctl --help: usage() on stdout, nothing on stderr, exit 0" \
			"exit $rc; stderr: $(cat "$scratch/help.err")"
	fi
	check "rcuqs-ctl.8 COMMANDS: usage()'s commands and arguments, same order" commands_match "$page8"
	check "rcuqs-ctl.8 SYNOPSIS: one line per command of usage(), no other" synopsis_match "$page8"
	check "rcuqs-ctl.8 OPTIONS: usage()'s options, same order" options_match "$page8"
	check "rcuqs-ctl.8 EXIT STATUS: exactly the codes of rcuqs.h" exit_codes_match "$page8"
	check "rcuqs-ctl.8 FILES: every path the tool uses" files_match "$page8"

	# The codes the tool really returns are the documented ones.
	documented() { tags "$page8" "EXIT STATUS" | grep -qx "$1"; }
	# run_code NAME WANT COMMAND...: exits WANT, and WANT is documented.
	run_code() {
		name=$1 want=$2
		shift 2
		"$@" >"$scratch/run.out" 2>"$scratch/run.err"
		rc=$?
		if [ "$rc" -ne "$want" ]; then
			not_ok "$name" "exit $rc, want $want; stderr: $(head -n 3 "$scratch/run.err")"
		elif ! documented "$want"; then
			not_ok "$name" "exit $want is not in rcuqs-ctl.8 EXIT STATUS"
		else
			ok "$name"
		fi
	}
	fake=$scratch/fakeroot
	mkdir -p "$fake/proc" "$fake/etc" "$fake/run"
	run_code "exit 0 (documented): rcuqs-ctl --version" 0 "$tool" --version
	grep -Eqx 'rcuqs-ctl [^ ]+' "$scratch/run.out" ||
		out "# --version printed: $(cat "$scratch/run.out")"
	run_code "exit 2 (documented): unknown command" 2 "$tool" --root "$fake" no-such-command
	grep -q "Try 'rcuqs-ctl --help' for more information." "$scratch/run.err" ||
		out "# unknown command: no \"Try 'rcuqs-ctl --help'\" line on stderr"
	run_code "exit 2 (documented): unknown option" 2 "$tool" --no-such-option list
	run_code "exit 3 (documented): kernel without the rcuqs patches" 3 "$tool" --root "$fake" status
	# set-profile on a stock kernel exits 3 and writes nothing (no record,
	# no boot form): nothing is staged for the next boot. The docs that
	# tell an administrator about it must say just that.
	if [ "$(id -u)" -eq 0 ]; then
		stock=$scratch/stock
		mkdir -p "$stock/proc" "$stock/run" "$stock/etc/rcuqs/profiles" "$stock/etc/default/grub.d" \
			"$stock/etc/kernel" "$stock/usr/lib/rcuqs/profiles" "$stock/sys/module/rcutree/parameters"
		cp "$tool_src"/profiles/*.profile "$stock/usr/lib/rcuqs/profiles/"
		chmod -R go-w "$stock"
		echo auto >"$stock/sys/module/rcutree/parameters/jiffies_till_sched_qs"
		printf 'root=UUID=0f3e ro quiet\n' >"$stock/etc/kernel/cmdline"
		snap() { (cd "$stock" && find . -print -type f -exec cat {} + 2>&1) | sha256sum; }
		before=$(snap)
		run_code "exit 3 (documented): set-profile on a stock kernel" 3 "$tool" --root "$stock" set-profile latency
		if [ "$(snap)" = "$before" ]; then
			ok "set-profile on a stock kernel writes nothing (no record, no GRUB drop-in, no /etc/kernel/cmdline change)"
		else
			not_ok "set-profile on a stock kernel writes nothing" "$(cd "$stock" && find . -newer "$scratch/help")"
		fi
		# What the docs say --stage does there: the record and the boot
		# form, and no parameter.
		sysnap() { (cd "$stock/sys" && find . -print -type f -exec cat {} + 2>&1) | sha256sum; }
		sys_before=$(sysnap)
		run_code "exit 0 (documented): set-profile --stage on a stock kernel" 0 \
			"$tool" --root "$stock" set-profile --stage latency
		if [ "$(cat "$stock/etc/rcuqs/active" 2>/dev/null)" = latency ] &&
			grep -q 'cond_resched_qs_limit=256' "$stock/etc/default/grub.d/rcuqs.cfg" &&
			grep -q 'cond_resched_qs_limit=256' "$stock/etc/kernel/cmdline" &&
			[ "$(sysnap)" = "$sys_before" ]; then
			ok "set-profile --stage on a stock kernel records the profile and writes its boot form, no parameter"
		else
			not_ok "set-profile --stage on a stock kernel records the profile and writes its boot form, no parameter" \
				"$(cd "$stock" && find . -newer "$scratch/help")"
		fi
	else
		skip "set-profile on a stock kernel: exit 3, nothing written" "needs root"
	fi
	if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
		# nobody must reach the tool and the root, which a checkout under a
		# directory others cannot traverse (root's 0700 home) does not let
		# it: both go to a scratch directory under /tmp.
		open=$(mktemp -d /tmp/rcuqs-man-check.XXXXXX)
		chmod 0755 "$open"
		cp "$tool" "$open/rcuqs-ctl"
		cp -r "$fake" "$open/root"
		run_code "exit 4 (documented): a non-root user tries to write" 4 \
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$open/rcuqs-ctl" --root "$open/root" apply
		rm -rf "$open"
	else
		skip "exit 4 for a non-root writer" "needs root and setpriv to drop privileges"
	fi
	# An rcuqs kernel: its counters' directory is the marker (RCUQS_MARKER).
	mkdir -p "$fake/sys/module/rcutree/parameters" "$fake/sys/kernel/rcu_qs"
	echo 0 >"$fake/sys/module/rcutree/parameters/cond_resched_qs_limit"
	run_code "exit 5 (documented): verify with no active profile" 5 "$tool" --root "$fake" verify

	# The example profiles of rcuqs.profile(5) are accepted by the tool:
	# each .EX block whose first line is "# /etc/rcuqs/profiles/NAME.profile"
	# becomes that file in a fake root with the shipped profiles.
	if [ "$(id -u)" -eq 0 ]; then
		check "every example profile in rcuqs.profile.5 passes 'rcuqs-ctl show'" \
			examples_accepted "$page5"
	else
		skip "example profiles pass 'rcuqs-ctl show'" "profiles must be root-owned: run as root"
	fi
	check "doc/ansible/rcuqs.yml: every rcuqs-ctl command and option it runs is in usage()" \
		playbook_commands "$top/doc/ansible/rcuqs.yml"
else
	for t in "usage() on stdout" "COMMANDS match usage()" "SYNOPSIS matches usage()" \
		"OPTIONS match usage()" "EXIT STATUS matches rcuqs.h" "FILES match the tool" \
		"exit codes the tool returns are documented"; do
		skip "rcuqs-ctl.8: $t" "$why"
	done
fi

if [ -f "$tool_src/thresholds.c" ]; then
	check "rcuqs.7 RECOMMENDATION THRESHOLDS: exactly rcuqs-ctl's thresholds.c" \
		thresholds_match "$page7"
fi
check "rcuqs.7: the counter example runs as printed and computes the right rates" \
	counter_example "$page7"
if ls "$top"/kernel-patches/*/*.patch >/dev/null 2>&1; then
	check "the counters of the kernel series: rcuqs.7 CONFIRMING THE EFFECT, rcuqs-ctl.8 FILES" \
		counters_match "$page7" "$page8"
else
	skip "counters of the kernel series in rcuqs.7" "kernel-patches/ has no patches yet"
fi
if [ -f "$tool_src/tunables.c" ]; then
	check "every tunable of tunables.c in rcuqs.profile.5 (Tunables) and rcuqs.7 (TUNABLES)" \
		tunables_match "$page5" "$page7"
else
	skip "tunables in rcuqs.profile.5 and rcuqs.7" "rcuqs-ctl/tunables.c does not exist yet"
fi
if ls "$tool_src/profiles/"*.profile >/dev/null 2>&1; then
	check "every shipped profile and its settings in rcuqs.profile.5, and in rcuqs.7" \
		profiles_match "$page5" "$page7"
else
	skip "shipped profiles in rcuqs.profile.5 and rcuqs.7" "rcuqs-ctl/profiles/ has no profiles yet"
fi

# --- self-tests: every check must reject a broken page ----------------------

# broken NAME SED-SCRIPT SOURCE: a mutated copy; complains if sed did nothing.
broken() {
	sed "$2" "$3" >"$scratch/$1"
	cmp -s "$3" "$scratch/$1" && out "# self-test $1: sed '$2' changed nothing"
	echo "$scratch/$1"
}
b=$(broken bad-macro.8 's/^\.SH DESCRIPTION$/.SH DESCRIPTION\n.XY foo/' "$page8")
expect_fail "self-test: mandoc lint rejects an unknown macro" "unknown macro|XY" lint_mandoc "$b"
b=$(broken long-line.8 's/^\.SH DESCRIPTION$/.SH DESCRIPTION\nThis input line is much longer than eighty bytes, which mandoc calls a style problem./' "$page8")
expect_fail "self-test: mandoc lint rejects an input line over 80 bytes" "longer than 80" lint_mandoc "$b"
b=$(broken wide.8 's/^\.SH DESCRIPTION$/.SH DESCRIPTION\n.EX\nan example line that is far too wide for an eighty-column terminal: xxxxxxxxxxxxxxxx\n.EE/' "$page8")
expect_fail "self-test: width check rejects a line rendered wider than 80 columns" "columns" width_80 "$b"
if command -v groff >/dev/null 2>&1; then
	b=$(broken bad-escape.8 's/^\.SH DESCRIPTION$/.SH DESCRIPTION\n\\[nonesuch]/' "$page8")
	expect_fail "self-test: groff -ww rejects an unknown escape" "warning" lint_groff "$b"
fi
b=$(broken unit.8 's/rcuqs\\-profile@latency.service/rcuqs\\-switch@latency.service/' "$here/rcuqs-ctl.8")
expect_fail "self-test: unit check rejects a unit systemd-units/ does not have" \
	"rcuqs-switch@.service" units_named "$b"
b=$(broken order.8 's/^\.SH FILES$/.SH FILEZ/; s/^\.SH EXAMPLES$/.SH FILES/' "$page8")
expect_fail "self-test: section order check rejects FILES after ENVIRONMENT" \
	"FILES after|no FILES" section_order "$b" all
b=$(broken noexit.8 's/^\.SH EXIT STATUS$/.SH EXIT CODES/' "$page8")
expect_fail "self-test: section check rejects a missing EXIT STATUS" "no EXIT STATUS" \
	section_order "$b" all
if [ -n "$tool" ]; then
	b=$(broken playbook-bad.yml "s/set-profile --check/set-profile --dry-run/" "$top/doc/ansible/rcuqs.yml")
	expect_fail "self-test: a playbook option usage() lacks is caught" "--dry-run" playbook_commands "$b"
	b=$(broken playbook-bad-cmd.yml "s/rcuqs-ctl verify/rcuqs-ctl check/" "$top/doc/ansible/rcuqs.yml")
	expect_fail "self-test: a playbook command usage() lacks is caught" "'check'" playbook_commands "$b"
	b=$(broken nostatus.8 '/^\.SH COMMANDS$/,/^\.SH OPTIONS$/{/^\.B status$/d}' "$page8")
	expect_fail "self-test: COMMANDS check rejects a missing command" "^-status" commands_match "$b"
	b=$(broken extra.8 's/^\.SH OPTIONS$/.TP\n.B frobnicate\nExtra.\n.SH OPTIONS/' "$page8")
	expect_fail "self-test: COMMANDS check rejects a command the tool lacks" "^\+frobnicate" \
		commands_match "$b"
	b=$(broken swap.8 '/^\.SH OPTIONS$/,/^\.SH FILES$/{s/^\.BR \\-j ", " \\-\\-json$/.BR \\-h ", " \\-\\-help/;t;s/^\.BR \\-h ", " \\-\\-help$/.BR \\-j ", " \\-\\-json/}' "$page8")
	expect_fail "self-test: OPTIONS check rejects options out of usage() order" "^-" options_match "$b"
	b=$(broken synopsis.8 '/^\.SH SYNOPSIS$/,/^\.SH DESCRIPTION$/{s/^\.B boot\\-args$/.B boot\\-argz/}' "$page8")
	expect_fail "self-test: SYNOPSIS check rejects a misnamed command" "boot-args|boot-argz" \
		synopsis_match "$b"
	b=$(broken exit.8 '/^\.SH EXIT STATUS$/,/^\.SH ENVIRONMENT$/{s/^\.B 6$/.B 7/}' "$page8")
	expect_fail "self-test: EXIT STATUS check rejects a wrong code" "^-6|^\+7" exit_codes_match "$b"
	b=$(broken files.8 's|^\.I /run/rcuqs.lock$|.I /run/rcuqs.lck|' "$page8")
	expect_fail "self-test: FILES check rejects a misnamed lock file" "/run/rcuqs.lock" files_match "$b"
fi
if [ -n "$tool" ] && [ "$(id -u)" -eq 0 ]; then
	b=$(broken example.5 's/^rcu_nocbs=2\\-7$/rcu_nocbs=2\\-x/' "$page5")
	expect_fail "self-test: example check rejects an example with a bad value" "rt.*refused|2-x" \
		examples_accepted "$b"
fi
b=$(broken ex.7 's|d\[$1\] / 10 }|d[$1] / 100 }|' "$page7")
expect_fail "self-test: counter example check rejects a wrong rate" "example printed" \
	counter_example "$b"
if ls "$top"/kernel-patches/*/*.patch >/dev/null 2>&1; then
	b=$(broken cnt.7 '/^\.SH CONFIRMING THE EFFECT$/,/^\.SH KERNEL/{s/^\.B urgent_qs$/.B urgent_qz/}' "$page7")
	expect_fail "self-test: counter check rejects a misnamed counter" "urgent_q" \
		counters_match "$b" "$page8"
fi
if [ -f "$tool_src/thresholds.c" ]; then
	b=$(broken thr.7 's/^\.B urgent_qs_preempt 1\.5\/s$/.B urgent_qs_preempt 4\/s/' "$page7")
	expect_fail "self-test: threshold check rejects a value the tool does not use" \
		"urgent_qs_preempt" thresholds_match "$b"
fi
if [ -f "$tool_src/tunables.c" ]; then
	b=$(broken tun.5 '/^\.SS Tunables$/,/^\.SS Shipped/{s/^\.B rcu_nocbs$/.B rcu_nocb/}' "$page5")
	expect_fail "self-test: tunables check rejects a misnamed tunable" "rcu_nocb" \
		tunables_match "$b" "$page7"
fi
if ls "$tool_src/profiles/"*.profile >/dev/null 2>&1; then
	first=$(sed -n 1p "$scratch/want-prof")
	b=$(broken prof.5 "/^\.SS Shipped profiles\$/,/^\.SS Safety\$/{/^\.B $first\$/,/^\.TP\$/{s/[0-9]\\+/999999/g}}" "$page5")
	expect_fail "self-test: profile check rejects a page with wrong values for '$first'" \
		"does not say|differ" profiles_match "$b" "$page7"
	b=$(broken prof.7 "s/^\.B $first\$/.B ${first}x/" "$page7")
	expect_fail "self-test: profile check rejects rcuqs.7 without '$first'" "lacks $first" \
		profiles_match "$page5" "$b"
fi

# --- the administrator's path: README, rcuqs(7), debian/control -------------

# flat FILE: FILE's text on one line, blanks squeezed (man pages rendered).
flat() {
	case $1 in
	*.[578]) mandoc -Tascii -Owidth=200 "$1" | col -bx ;;
	*) cat "$1" ;;
	esac | tr '\n' ' ' | tr -s ' '
}
# stock_said [--staging] FILE...: each says that set-profile on a stock
# kernel exits 3 and writes nothing, and none that it writes only the boot
# form there; with --staging, also that set-profile --stage stages a
# profile there, and none that staging is not done yet.
stock_said() {
	staging=""
	[ "$1" = --staging ] && { staging=1; shift; }
	for f in "$@"; do
		t=$(flat "$f")
		case $t in
		*"exits 3 and writes nothing"*) ;;
		*) echo "$f does not say that set-profile exits 3 and writes nothing on a stock kernel"; return 1 ;;
		esac
		case $t in
		*"only writes the boot form"* | *"only write the boot form"*)
			echo "$f says the tool only writes the boot form on a stock kernel"; return 1 ;;
		esac
		[ -z "$staging" ] && continue
		case $t in
		*"not done yet"* | *"future work"*)
			echo "$f still says that staging on a stock kernel is not done yet"; return 1 ;;
		esac
		case $t in
		*"set-profile --stage"*) ;;
		*) echo "$f does not say that set-profile --stage stages a profile on a stock kernel"; return 1 ;;
		esac
	done
}
check "README, rcuqs.7, doc/install.md: set-profile on a stock kernel exits 3 and writes nothing; set-profile --stage stages" \
	stock_said --staging "$top/README.md" "$page7" "$top/doc/install.md"
b=$(broken readme-not-done "s/^rcuqs.service applies it at the rcuqs kernel's first boot. /staging is not done yet. /" "$top/README.md")
expect_fail "self-test: a README that says staging is not done yet is caught" \
	"not done yet" stock_said --staging "$b"
b=$(broken readme-no-stage "s/set-profile --stage latency/set-profile latency/" "$top/README.md")
expect_fail "self-test: a README without set-profile --stage is caught" \
	"set-profile --stage" stock_said --staging "$b"
check "debian/control: set-profile on a stock kernel exits 3 and writes nothing" \
	stock_said "$top/debian/control"
b=$(broken control-old "s/exits 3 and writes nothing/only writes the boot form/" "$top/debian/control")
expect_fail "self-test: the old 'only writes the boot form' in debian/control is caught" \
	"does not say|boot form" stock_said "$b"

# readme_section TITLE: the lines of README's "## TITLE" section.
readme_section() { awk -v t="## $1" '$0 == t { on = 1; next } /^## / { on = 0 } on' "$top/README.md"; }
# harness_two: the development harness's set-up is make demo and make check.
harness_two() {
	cmds=$(readme_section Set-up | sed -n 's/^    \([^ #][^#]*\).*/\1/p' | sed 's/[[:space:]]*$//')
	[ "$cmds" = "make demo
make check" ] || { echo "README Set-up commands: $(echo "$cmds" | tr '\n' ';')"; return 1; }
}
check "README: the development harness's set-up is exactly 'make demo' and 'make check'" harness_two
# quick_start: the README's quick start for a real machine, in order; and
# its way back is rcuqs(7) ROLLBACK's, command for command.
code_cmds() { sed -n 's/^    \([^ #][^#]*\).*/\1/p' | sed 's/[[:space:]]*$//'; }
quick_start() {
	readme_section "Quick start on a real machine" >"$scratch/qs"
	[ -s "$scratch/qs" ] || { echo "README has no '## Quick start on a real machine'"; return 1; }
	sed '/^The way back/,$d' "$scratch/qs" | code_cmds >"$scratch/qs-on"
	sed -n '/^The way back/,$p' "$scratch/qs" | code_cmds >"$scratch/qs-back"
	awk -v want='make kernel-deb|make deb|apt install ./build/rcuqs_*.deb|apt install $(cat build/kernel-deb.install)|reboot|rcuqs-kernel status|rcuqs-ctl status|rcuqs-ctl set-profile|update-grub|reboot|rcuqs-ctl verify' '
		BEGIN { n = split(want, w, "|"); i = 1 }
		i <= n && index($0, w[i]) == 1 { i++ }
		END { if (i <= n) { print "README quick start lacks, in order: " w[i]; exit 1 } }' "$scratch/qs-on" ||
		return 1
	mandoc -Tascii -Owidth=200 "$page7" | col -bx |
		awk '/^ROLLBACK/ { on = 1; next } /^[A-Z]/ { on = 0 } on' |
		awk '/^ *# / { sub(/^ *# /, ""); c = 1 } c { if (/\\$/) { sub(/ *\\$/, ""); l = l $0 " "; next }
			print l $0; l = ""; c = 0 }' |
		tr -s ' ' | sed 's/ *$//' >"$scratch/man-back"
	tr -s ' ' <"$scratch/qs-back" >"$scratch/qs-back1"
	[ -s "$scratch/man-back" ] || { echo "rcuqs.7 has no ROLLBACK example"; return 1; }
	grep -q '^rcuqs-ctl off$' "$scratch/man-back" && grep -q '^apt purge rcuqs ' "$scratch/man-back" ||
		{ echo "rcuqs.7 ROLLBACK: $(tr '\n' ';' <"$scratch/man-back")"; return 1; }
	same_list "ways back (- README, + rcuqs.7 ROLLBACK)" "$scratch/qs-back1" "$scratch/man-back"
}
check "README quick start: kernel-deb, deb, the tool, then the kernel (tried by itself), reboot, rcuqs-kernel status, set-profile, update-grub, reboot, verify; its way back is rcuqs.7's ROLLBACK" \
	quick_start


# --- one source of measured figures: doc/bench-figures ---------------------

figures=$top/doc/bench-figures
quotes=$top/doc/bench-quotes
# quote_flat FILE: FILE's text on one line, blanks squeezed: man pages
# rendered (a word broken after its hyphen joined again), profiles without
# their comment marks.
quote_flat() {
	case $1 in
	*.[578]) mandoc -Tascii -Owidth=200 "$1" | col -bx | sed 's/^ *//' |
		awk '{ if (prev ~ /[a-z]-$/) printf "%s", $0; else printf " %s", $0; prev = $0 }' ;;
	*.profile | */corpus-profile/*) sed 's/^#//' "$1" ;;
	*) cat "$1" ;;
	esac | tr '\t\n' '  ' | tr -s ' '
}
# figures_quoted FIGURES QUOTES [FILE=COPY]...: every quote of QUOTES, its
# {key}s replaced by FIGURES' values, is in its file (or in COPY, for the
# self-tests); a key FIGURES lacks fails too.
figures_quoted() {
	local fig=$1 quo=$2 bad=0 nq=0 file text path o want
	shift 2
	while IFS='	' read -r file text; do
		case $file in '' | '#'*) continue ;; esac
		nq=$((nq + 1))
		path=$top/$file
		for o in "$@"; do [ "${o%%=*}" = "$file" ] && path=${o#*=}; done
		[ -f "$path" ] || { echo "$file: no such file"; bad=1; continue; }
		want=$(printf '%s\n' "$text" | awk -v fig="$fig" '
			BEGIN { while ((getline l < fig) > 0) if (l ~ /^[a-z0-9_]+=/) {
				k = l; sub(/=.*/, "", k); v = l; sub(/^[^=]*=/, "", v); val[k] = v } }
			{ out = ""; s = $0
			  while (match(s, /\{[a-z0-9_]+\}/)) {
				k = substr(s, RSTART + 1, RLENGTH - 2)
				if (!(k in val)) { print "unknown key {" k "}" > "/dev/stderr"; exit 1 }
				out = out substr(s, 1, RSTART - 1) val[k]; s = substr(s, RSTART + RLENGTH) }
			  print out s }') || { echo "$file: a key of doc/bench-quotes is not in doc/bench-figures: $text"; bad=1; continue; }
		want=$(printf '%s\n' "$want" | tr -s ' ')
		case " $(quote_flat "$path") " in
		*"$want"*) ;;
		*) echo "$file does not say: $want"; bad=1 ;;
		esac
	done <"$quo"
	[ "$nq" -gt 0 ] || { echo "no quotes in $quo"; return 1; }
	return $bad
}
if [ -f "$figures" ] && [ -f "$quotes" ]; then
	check "measured figures: README, profiles, rcuqs.7, thresholds.c, the cover letter and patch 2 quote doc/bench-figures" \
		figures_quoted "$figures" "$quotes"
	# The figures the review found disagreeing, as they read before: each
	# must be caught in a broken copy.
	b=$(broken fig-measurements.md 's/| `default` | 212 \/ 338 ms/| `default` | 220 \/ 338 ms/' "$top/doc/measurements.md")
	expect_fail "self-test: figures check rejects a doc/measurements.md table cell that is not the source's" \
		"measurements.md does not say" figures_quoted "$figures" "$quotes" "doc/measurements.md=$b"
	b=$(broken fig-readme.md 's/it ran 3\.7$/it ran 3.9/; s/ran 3\.7 times/ran 3.9 times/' "$top/README.md")
	expect_fail "self-test: figures check rejects a README cost figure that is not the source's" \
		"README.md does not say" figures_quoted "$figures" "$quotes" "README.md=$b"
	b=$(broken fig-latency.profile 's/limit_qs grows by 52000 and 64000/limit_qs grows by about 45000/' \
		"$tool_src/profiles/latency.profile")
	expect_fail "self-test: figures check rejects a profile whose limit_qs rate is not the source's" \
		"latency.profile does not say" figures_quoted "$figures" "$quotes" \
		"rcuqs-ctl/profiles/latency.profile=$b"
	b=$(broken fig-rcuqs.7 's/and nothing beyond the noise from about 80\\~ns of/and nothing beyond the noise from about 35\\~ns of/' "$page7")
	expect_fail "self-test: figures check rejects rcuqs.7 with another cost figure" \
		"rcuqs.7 does not say" figures_quoted "$figures" "$quotes" "man/rcuqs.7=$b"
	b=$(broken fig-cover.patch 's/^  default                       212    338      300    788$/  default                       220    338      300    788/' \
		"$top/kernel-patches/6.1/0000-cover-letter.patch")
	expect_fail "self-test: figures check rejects a cover letter table row that is not the source's" \
		"cover-letter.patch does not say" figures_quoted "$figures" "$quotes" \
		"kernel-patches/6.1/0000-cover-letter.patch=$b"
	b=$(broken fig-recommend.c 's/grace periods p50 36 ms against 300 ms/grace periods p50 32 ms against 300 ms/' \
		"$tool_src/cmd-recommend.c")
	expect_fail "self-test: figures check rejects recommend's stock-kernel advice with a figure that is not the source's" \
		"cmd-recommend.c does not say" figures_quoted "$figures" "$quotes" \
		"rcuqs-ctl/cmd-recommend.c=$b"
	b=$(broken fig-source 's/^none_default_p50=212$/none_default_p50=220/' "$figures")
	expect_fail "self-test: figures check rejects docs that no longer match a changed source" \
		"does not say" figures_quoted "$b" "$quotes"
	printf 'README.md\t{no_such_figure} ms\n' >"$scratch/fig-quotes"
	expect_fail "self-test: figures check rejects a quote of a figure the source lacks" \
		"not in doc/bench-figures" figures_quoted "$figures" "$scratch/fig-quotes"
else
	not_ok "measured figures: doc/bench-figures and doc/bench-quotes exist" "missing"
fi

# --- one story per baseline: doc/baselines.md ------------------------------

baselines=$top/doc/baselines.md
# flat_doc FILE: FILE's text on one line (quote_flat), markdown's
# backticks dropped, so that a page and the source compare as words.
flat_doc() { quote_flat "$1" | tr -d '`'; }
# status_source BASELINES: its "## Status" sentences, one per baseline 6.1,
# 6.12, 7.3, in the one wording; each test kernel is one make check builds
# (guest-image/Makefile VARIANTS) and each KERNEL= one make kernel-deb
# takes (install-deps.sh kernel-deb). The sentences go to $scratch/status.
status_source() {
	awk '/^## Status$/ { on = 1; next } /^## / { on = 0 } on && /^- / { sub(/^- /, ""); print }' "$1" |
		tr -d '`' >"$scratch/status"
	variants=$(sed -n 's/^VARIANTS := //p' "$top/guest-image/Makefile")
	kinds=$(sed -n '/^kernel-deb)/,/esac/p' "$top/scripts/install-deps.sh" | sed -n 's/^[[:space:]]*\([0-9. |]*\)).*/\1/p' | tr -d ' ' | tr '|' ' ')
	while IFS= read -r l; do
		b=${l%%:*}
		v=$(printf '%s\n' "$l" | sed -n "s/^$b: built, booted and tested by make check as the \([a-z0-9.-]*\) test kernel; packaged by make kernel-deb KERNEL=$b; measured by make bench\.\$/\1/p")
		[ -n "$v" ] || { echo "$1: not in the one wording: $l"; return 1; }
		case " $variants " in *" $v "*) ;; *) echo "$1: $b's test kernel $v is not one make check builds ($variants)"; return 1 ;; esac
		case " $kinds " in *" $b "*) ;; *) echo "$1: make kernel-deb takes no KERNEL=$b ($kinds)"; return 1 ;; esac
	done <"$scratch/status"
	[ "$(cut -d: -f1 "$scratch/status" | tr '\n' ' ')" = "6.1 6.12 7.3 " ] ||
		{ echo "$1: status sentences for $(cut -d: -f1 "$scratch/status" | tr '\n' ' '), want 6.1 6.12 7.3"; return 1; }
}
# status_said FILE...: each says every status sentence of doc/baselines.md.
status_said() {
	for f in "$@"; do
		t=" $(flat_doc "$f") "
		while IFS= read -r l; do
			case $t in *" $l "*) ;; *) echo "$f does not say, as doc/baselines.md does: $l"; return 1 ;; esac
		done <"$scratch/status"
	done
}
# stale_status FILE...: no sentence that names a baseline says it is not
# (yet) built, booted, tested or measured, or that this is pending.
stale_status() {
	bad=0
	for f in "$@"; do
		flat_doc "$f" | sed 's/\([.;:]\) /\1\n/g' |
			grep -E '(^|[^0-9.])(6\.1|6\.12|7\.3)([^0-9]|$)' |
			grep -i -E "not (yet )?(be )?(built|booted|tested|measured)|yet to (be )?(build|boot|test|measur)|(decision|measurement)s? (is |are )?pending|pending measurement|not by make (kernel|check)|not measured yet" |
			sed "s|^|$f: |" | grep . && bad=1
	done
	return $bad
}
status_files() {
	ls "$top/README.md" "$top"/doc/*.md "$here"/*.[578] "$tool_src"/profiles/*.profile \
		"$top/debian/README.Debian"
}
if check "doc/baselines.md: one status sentence per baseline (6.1, 6.12, 7.3), test kernels and KERNEL= as make has them" \
	status_source "$baselines"; then
	check "README, rcuqs.7, rcuqs-ctl.8, rcuqs.profile.5 say each baseline's status as doc/baselines.md does" \
		status_said "$top/README.md" "$page7" "$page8" "$page5"
	b=$(broken st73.7 's/as the lazy\\-7\.3 test kernel/as the lazy\\-7.3 test kernel (not yet measured)/' "$page7")
	expect_fail "self-test: the status check rejects rcuqs.7 with a sabotaged 7.3 status sentence" \
		"does not say" status_said "$b"
	b=$(broken st73.md 's/^- 7\.3: built, booted and tested by/- 7.3: built and booted by/' "$baselines")
	expect_fail "self-test: the status check rejects a 7.3 status sentence out of the one wording" \
		"one wording" status_source "$b"
	status_source "$baselines" >/dev/null || :
fi
# shellcheck disable=SC2046 # file names without blanks
check "no page, doc or profile says a baseline is not built, tested or measured, or pending" \
	stale_status $(status_files)
b=$(broken stale.md 's/^## Where everything else lives$/7.3 is not built by make check; a decision is pending measurement.\n\n&/' "$top/README.md")
expect_fail "self-test: the stale-status check rejects a README that says 7.3 is not built by make check" \
	"not built" stale_status "$b"
b=$(broken stale.5 's/^\.SS Shipped profiles$/&\nOn 7.3 the value is not measured yet./' "$page5")
expect_fail "self-test: the stale-status check rejects rcuqs.profile.5 saying 7.3 is not measured yet" \
	"not measured" stale_status "$b"

# expand_quotes FIGURES QUOTES FILE: QUOTES' quotes of FILE, one a line,
# FIGURES' values put in, blanks squeezed.
expand_quotes() {
	awk -F'\t' -v fig="$1" -v want="$3" '
		BEGIN { while ((getline l < fig) > 0) if (l ~ /^[a-z0-9_]+=/) {
			k = l; sub(/=.*/, "", k); v = l; sub(/^[^=]*=/, "", v); val[k] = v } }
		$1 != want { next }
		{ out = ""; s = $2
		  while (match(s, /\{[a-z0-9_]+\}/)) {
			k = substr(s, RSTART + 1, RLENGTH - 2)
			out = out substr(s, 1, RSTART - 1) ((k in val) ? val[k] : "{" k "}"); s = substr(s, RSTART + RLENGTH) }
		  print out s }' "$2" | tr -s ' '
}
# unquoted_figures FIGURES QUOTES NAME [COPY]: every figure of NAME (or of
# COPY, for the self-tests) is one doc/bench-quotes quotes, so it is
# doc/bench-figures' value: a markdown table row with a digit must be a
# quote, and in the README a number with a unit of measure (ms, ns, x,
# "times", "a second", /s) must stand inside a quote.
unquoted_figures() {
	local name=$3 path=${4:-$top/$3} bad=0 rest q
	expand_quotes "$1" "$2" "$name" >"$scratch/uq-quotes"
	grep -E '^\|' "$path" | grep -E '(^|[| (])[0-9][0-9.]*( ?/| ?ms| ?\|| \(|x)' | while IFS= read -r row; do
		row=$(printf '%s\n' "$row" | tr -s ' ')
		grep -Fqx -- "$row" "$scratch/uq-quotes" || { echo "$name: a table row with figures that doc/bench-quotes does not quote: $row"; exit 1; }
	done || bad=1
	case $name in
	README.md)
		quote_flat "$path" | awk -v qf="$scratch/uq-quotes" '
			BEGIN { while ((getline q < qf) > 0) qs[++nq] = q }
			{ t = " " $0 " "
			  for (i = 1; i <= nq; i++)
				while ((p = index(t, qs[i])) > 0)
					t = substr(t, 1, p - 1) " [quoted] " substr(t, p + length(qs[i]))
			  print t }' | grep -o -E '[0-9][0-9.]*(-[0-9.]+)? ?(ms|ns|x|times|a second|/s)([^a-z]|$)' |
			sed "s|^|$name: a figure outside doc/bench-quotes: |" | grep . && bad=1 ;;
	esac
	return $bad
}
if [ -f "$figures" ] && [ -f "$quotes" ]; then
	for f in README.md doc/measurements.md; do
		check "$f: every figure is one doc/bench-quotes quotes from doc/bench-figures" \
			unquoted_figures "$figures" "$quotes" "$f"
	done
	b=$(broken uq-readme.md 's/^## Where everything else lives$/With `latency` the p99 fell to 17.9 ms.\n\n&/' "$top/README.md")
	expect_fail "self-test: the figures check rejects a README figure that doc/bench-figures lacks" \
		"outside doc/bench-quotes: 17.9 ms" unquoted_figures "$figures" "$quotes" README.md "$b"
	b=$(broken uq-meas.md 's/^| `throughput` (`jiffies_till_sched_qs=1000`) | 880.0 \/ 1618.7 ms |$/&\n| `latency` again | 8.3 \/ 16.1 ms |/' "$top/doc/measurements.md")
	expect_fail "self-test: the figures check rejects a doc/measurements.md table row that doc/bench-figures lacks" \
		"does not quote: | .latency. again" unquoted_figures "$figures" "$quotes" doc/measurements.md "$b"
fi

# No sentence promises figures "from the benchmark" that are in by now.
no_stale_promise() {
	grep -rn -i -E "will come from (the|a) (rcuqs )?bench" "$top/README.md" "$top/doc" "$top/man" \
		"$tool_src/profiles" "$top/debian" "$top/kernel-patches/6.1"/*.patch \
		"$top/kernel-patches/6.12"/*.patch | grep -v '/man/tests/' && return 1
	return 0
}
check "no 'will come from the benchmark' sentence left" no_stale_promise

# --- the example Ansible playbook --------------------------------------------

# playbook_run: the playbook on this machine (connection local), with a
# PATH of stubs and /usr/bin:/bin only: "rcuqs-ctl" is the built tool on a
# fake root, "update-grub" only notes that it ran; the package tasks are
# skipped (no .deb, no packages given). No /sbin, /usr/sbin: neither a real
# rcuqs-ctl nor update-grub is reachable. Each run's recap line is checked.
playbook_run() {
	pb=$scratch/playbook
	rm -rf "$pb"
	mkdir -p "$pb/bin" "$pb/ansible"
	# The CLI tests' fake root, made a stock kernel: no counters, no limit,
	# jiffies_till_sched_qs read-only with its auto shown as ULONG_MAX.
	cp -a "$tool_src/tests/rootfs-pristine" "$pb/root"
	find "$pb/root" -name .keep -delete
	mkdir -p "$pb/root/boot/grub"
	cp "$tool_src"/profiles/*.profile "$pb/root/usr/lib/rcuqs/profiles/"
	chown -R 0:0 "$pb/root"
	chmod -R go-w "$pb/root"
	printf 'root=/dev/vda quiet\n' >"$pb/root/etc/kernel/cmdline"
	rm -r "$pb/root/sys/kernel/rcu_qs" "$pb/root/sys/module/rcutree/parameters/cond_resched_qs_limit"
	printf '18446744073709551615\n' >"$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs"
	chmod 0444 "$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs"
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$tool" "$pb/root" >"$pb/bin/rcuqs-ctl"
	printf '#!/bin/sh\necho ran >>"%s"\n' "$pb/update-grub.log" >"$pb/bin/update-grub"
	chmod 0755 "$pb/bin/rcuqs-ctl" "$pb/bin/update-grub"
	printf '[rcuqs]\nlocalhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' \
		>"$pb/hosts"
	play() {
		env PATH="$pb/bin:/usr/bin:/bin" ANSIBLE_HOME="$pb/ansible" \
			ANSIBLE_LOCAL_TEMP="$pb/ansible/tmp" ANSIBLE_NOCOLOR=1 \
			ansible-playbook -i "$pb/hosts" -e ansible_become=false "$@" \
			"$top/doc/ansible/rcuqs.yml" >"$pb/play.log" 2>&1
		sed -n 's/^localhost *: \(ok=[0-9]* *changed=[0-9]*\).* failed=\([0-9]*\).*/\1 failed=\2/p' \
			"$pb/play.log" | tr -s ' '
	}
	# want WHAT GOT WANT: the recap (and the files) as expected.
	# changed= and failed= as given; ok= counts tasks, which the
	# playbook's own checks (tests/ansible) change: not compared.
	want() { [ "${2#ok=* }" = "${3#ok=* }" ] || { echo "$1: '$2', want '$3'"; tail -n 30 "$pb/play.log"; return 1; }; }
	want "stock kernel, --check" "$(play --check)" "ok=4 changed=1 failed=0" || return 1
	[ ! -e "$pb/root/etc/rcuqs/active" ] || { echo "--check wrote /etc/rcuqs/active"; return 1; }
	want "stock kernel: staged" "$(play)" "ok=7 changed=2 failed=0" || return 1
	want "stock kernel: /etc/rcuqs/active" "$(cat "$pb/root/etc/rcuqs/active")" latency || return 1
	want "update-grub ran" "$(cat "$pb/update-grub.log")" ran || return 1
	want "stock kernel: /sys untouched" \
		"$(cat "$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs")" \
		18446744073709551615 || return 1
	want "stock kernel, second run" "$(play)" "ok=4 changed=0 failed=0" || return 1
	# The rcuqs kernel boots with the staged boot form: the limit at 256.
	mkdir -p "$pb/root/sys/kernel/rcu_qs"
	for c in gp_completed limit_qs urgent_qs resched_kicks cbs_invoked; do
		echo 0 >"$pb/root/sys/kernel/rcu_qs/$c"
	done
	chmod 0644 "$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs"
	echo auto >"$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs"
	echo 256 >"$pb/root/sys/module/rcutree/parameters/cond_resched_qs_limit"
	want "rcuqs kernel, staged profile in force" "$(play)" "ok=5 changed=0 failed=0" || return 1
	want "rcuqs kernel, throughput" "$(play -e rcuqs_profile=throughput)" \
		"ok=7 changed=2 failed=0" || return 1
	want "rcuqs kernel: jiffies_till_sched_qs" \
		"$(cat "$pb/root/sys/module/rcutree/parameters/jiffies_till_sched_qs")" 1000 || return 1
	want "rcuqs kernel, throughput again" "$(play -e rcuqs_profile=throughput)" \
		"ok=5 changed=0 failed=0" || return 1
}

# Debian's ansible-core, when installed (install-deps.sh installs it for
# make check; tests/ansible runs the playbook more thoroughly); its state
# goes to the scratch directory, not to $HOME.
if command -v ansible-playbook >/dev/null 2>&1; then
	mkdir -p "$scratch/ansible"
	check "doc/ansible/rcuqs.yml: ansible-playbook --syntax-check" \
		env ANSIBLE_HOME="$scratch/ansible" ANSIBLE_LOCAL_TEMP="$scratch/ansible/tmp" \
		ANSIBLE_NOCOLOR=1 ansible-playbook --syntax-check -i localhost, "$top/doc/ansible/rcuqs.yml"
	b=$(broken playbook-yaml.yml "s/^  tasks:$/  tasks:\n   - bad: [/" "$top/doc/ansible/rcuqs.yml")
	expect_fail "self-test: ansible-playbook --syntax-check rejects a broken playbook" "ERROR|rror" \
		env ANSIBLE_HOME="$scratch/ansible" ANSIBLE_LOCAL_TEMP="$scratch/ansible/tmp" \
		ANSIBLE_NOCOLOR=1 ansible-playbook --syntax-check -i localhost, "$b"
	if [ -n "$tool" ] && [ "$(id -u)" -eq 0 ]; then
		check "doc/ansible/rcuqs.yml run on fake roots: stages on a stock kernel, sets on an rcuqs one, verifies, and a second run changes nothing" \
			playbook_run
	else
		skip "doc/ansible/rcuqs.yml run on fake roots" "needs the built tool and root (root-owned profiles)"
	fi
else
	skip "doc/ansible/rcuqs.yml: ansible-playbook --syntax-check" \
		"ansible-playbook is not installed (apt-get install ansible-core)"
	skip "doc/ansible/rcuqs.yml run on fake roots" "ansible-playbook is not installed"
fi

tap_end man
