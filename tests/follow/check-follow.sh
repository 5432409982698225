#!/bin/sh
# check-follow.sh: build-host/rcuqs-kernel-follow and its units, without
# apt, a kernel build, QEMU or the network: apt-get, apt-cache, make,
# the gate, logger and sendmail are stubs on PATH in a scratch folder,
# kernel-repo.sh a stub in a fake checkout (RCUQS_SRC). TAP to
# $RESULTS/follow.tap. A few seconds.
#
#   - nothing new (the candidate is the version published): no install,
#     no build, the state as it was, a log line saying so;
#   - a new upload: apt-get install linux-source-N=V linux-config-N=V, make
#     kernel-deb KERNEL=N KCONFIG=<Debian's configuration of V, from
#     linux-config-N> KDEB_ROLE=debian, the gate with the build's
#     environment, kernel-repo.sh add of the two packages into the repo,
#     the state V, a log line and a mail; the next upload builds with the
#     same KCONFIG path and role (the same O= folder); the default gate
#     is make check-quickstart with the baseline's suite and QS_KCONFIG;
#     a configuration file of the fleet's own with its role; the
#     checkout's real make kernel-deb, resolved with make -n, takes the
#     arguments (O= folder kdeb-debian, kdeb-6.12-debian); old logs go;
#   - a failed build, gate, publish, apt-get install or apt-get update:
#     nothing published, the state as it was, the step named in the log
#     and in the mail to MAILTO (none without MAILTO); the next run
#     builds again;
#   - a second run while one holds the lock refuses and does nothing;
#   - bad configurations (an unknown baseline, REPO unset or missing,
#     BASELINES unset, a missing KCONFIG file, a bad role, 7.3 without a
#     gate, no configuration file): exit 2 naming the problem, nothing
#     run, the state as it was;
#   - self-tests: copies of the script with a step's failure ignored, or
#     the state written before the gate, fail the checks above;
#   - the units: systemd-analyze verify (when there), the timer daily,
#     Persistent and RandomizedDelaySec, the service running the script
#     of the checkout; sh -n and shellcheck (when installed) on the script.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${BUILD:=$top/build}"
: "${RESULTS:=$BUILD/results}"
tap=$RESULTS/follow.tap
mkdir -p "$RESULTS"
: >"$tap"
. "$top/scripts/tap.sh"
script=$top/build-host/rcuqs-kernel-follow
S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT
out=$S/out

# --- the stubs ----------------------------------------------------------------
# Each records its arguments in $S/calls (one line: NAME ARGS); a file
# $S/fail-WHAT makes the step fail.
mkdir -p "$S/bin" "$S/src/scripts" "$S/usrsrc"
cat >"$S/bin/stub-apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$S/calls"
case $1 in
update) [ ! -e "$S/fail-update" ] || { echo "E: Failed to fetch (stub)"; exit 100; } ;;
install)
	[ ! -e "$S/fail-install" ] || { echo "E: Version not found (stub)"; exit 100; }
	for a; do
		case $a in
		linux-source-*=*) p=${a%%=*}; echo "${a#*=}" >"$S/installed-$p" ;;
		linux-config-*=*)
			p=${a%%=*} n=${p#linux-config-}
			mkdir -p "$S/usrsrc/$p"
			for f in config.amd64_none_amd64 config.amd64_rt_amd64 config.amd64_none_cloud-amd64; do
				printf 'CONFIG_STUB=y\n# %s %s\n' "$f" "${a#*=}" | xz >"$S/usrsrc/$p/$f.xz"
			done ;;
		esac
	done ;;
esac
EOF
cat >"$S/bin/stub-apt-cache" <<'EOF'
#!/bin/sh
echo "apt-cache $*" >>"$S/calls"
p=$2
c=$(cat "$S/cand-$p" 2>/dev/null || echo '(none)')
printf '%s:\n  Installed: (none)\n  Candidate: %s\n  Version table:\n' "$p" "$c"
EOF
# make: kernel-deb writes BUILD/kernel-deb.install naming two packages
# of the installed linux-source's version, as bindeb-pkg names them;
# check-quickstart (the default gate) passes.
cat >"$S/bin/make" <<'EOF'
#!/bin/sh
echo "make $*" >>"$S/calls"
env | grep '^KDEB_ROLE=' >>"$S/calls" || :
k=6.1 goal="" build=""
for a; do
	case $a in
	KERNEL=*) k=${a#KERNEL=} ;;
	BUILD=*) build=${a#BUILD=} ;;
	kernel-deb | check-quickstart) goal=$a ;;
	KCONFIG=*) cp "${a#KCONFIG=}" "$S/kconfig-seen" ;;
	esac
done
case $goal in
kernel-deb)
	[ ! -e "$S/fail-build" ] || { echo "kbuild: error (stub)"; exit 2; }
	# $S/real-make: the checkout's own make kernel-deb with these
	# arguments, resolved with make -n (nothing built).
	if [ -e "$S/real-make" ]; then
		shift 2 # -C RCUQS_SRC
		env -u MAKEFLAGS -u MAKELEVEL /usr/bin/make -n -C "$TOP" "$@" >"$S/real-make.out" 2>&1 || exit 2
	fi
	v=$(cat "$S/installed-linux-source-$k")
	rel=$k.${v%%-*}; rel=${v%%-*}-rcuqs2
	mkdir -p "$build"
	for p in image headers; do : >"$build/linux-$p-${rel}_$v+rcuqs2_amd64.deb"; done
	echo "$build/linux-image-${rel}_$v+rcuqs2_amd64.deb $build/linux-headers-${rel}_$v+rcuqs2_amd64.deb" >"$build/kernel-deb.install" ;;
check-quickstart) [ ! -e "$S/fail-gate" ] || { echo "not ok 3 - boot (stub)"; exit 1; } ;;
esac
EOF
cat >"$S/bin/gate" <<'EOF'
#!/bin/sh
echo "gate $RCUQS_FOLLOW_BASELINE $RCUQS_FOLLOW_VERSION $RCUQS_FOLLOW_KCONFIG $RCUQS_FOLLOW_DEBS" >>"$S/calls"
[ ! -e "$S/fail-gate" ] || { echo "not ok 7 - rcuqs-ctl verify (stub)"; exit 1; }
EOF
cat >"$S/src/scripts/kernel-repo.sh" <<'EOF'
#!/bin/sh
echo "kernel-repo $*" >>"$S/calls"
[ ! -e "$S/fail-publish" ] || { echo "kernel-repo: gpg could not sign (stub)" >&2; exit 1; }
echo "kernel-repo:   canary: linux-image-rcuqs-x-amd64 (stub)"
EOF
cat >"$S/bin/logger" <<'EOF'
#!/bin/sh
echo "$*" >>"$S/syslog"
EOF
cat >"$S/bin/sendmail" <<'EOF'
#!/bin/sh
n=$(ls "$S"/mail.* 2>/dev/null | wc -l)
{ echo "sendmail $*"; cat; } >"$S/mail.$n"
EOF
chmod +x "$S"/bin/* "$S/src/scripts/kernel-repo.sh"
mkdir -p "$S/repo"
TOP=$top
export S TOP

# setup [ASSIGNMENT...]: a fresh state, calls, logs and mail, and the
# configuration file with the ASSIGNMENTs after the defaults.
setup() {
	rm -rf "$S/state" "$S/logs" "$S/build" "$S"/calls "$S"/syslog "$S"/mail.* "$S"/fail-* "$S"/installed-* "$S"/cand-* "$S/kconfig-seen" \
		"$S/real-make" "$S/real-make.out"
	: >"$S/calls"
	: >"$S/syslog"
	{
		echo "RCUQS_SRC=$S/src"
		echo "REPO=$S/repo"
		echo "REPO_KEY=ops@example.org"
		echo "BASELINES=6.1"
		echo "GATE=$S/bin/gate"
		echo "FOLLOW_STATE=$S/state"
		echo "FOLLOW_LOGS=$S/logs"
		echo "BUILD=$S/build"
		for a; do
			# NAME='VALUE', quoted for the shell that reads it
			printf "%s='%s'\n" "${a%%=*}" "${a#*=}"
		done
	} >"$S/config"
}
# run [SCRIPT]: the follower, as the timer runs it but with the stubs.
run() {
	env -u INVOCATION_ID -u MAKEFLAGS -u MAKELEVEL PATH="$S/bin:$PATH" RCUQS_FOLLOW_CONFIG="$S/config" \
		RCUQS_FOLLOW_APT_GET="$S/bin/stub-apt-get" RCUQS_FOLLOW_APT_CACHE="$S/bin/stub-apt-cache" \
		RCUQS_FOLLOW_USRSRC="$S/usrsrc" sh "${1:-$script}" >"$S/stdout" 2>&1
}
# report: what a failed test shows.
report() {
	{
		echo "--- output"; cat "$S/stdout"
		echo "--- calls"; cat "$S/calls"
		echo "--- syslog"; cat "$S/syslog"
		for m in "$S"/mail.*; do [ -f "$m" ] && { echo "--- $m"; cat "$m"; }; done
		echo "--- state"; for f in "$S"/state/*; do [ -f "$f" ] && echo "$f: $(cat "$f")"; done
		cat "$S/why" 2>/dev/null
	} >"$out" 2>&1
}
why() { echo "WRONG: $*" >>"$S/why"; return 1; }
called() { grep -q -- "$1" "$S/calls" || why "no call matching '$1'"; }
not_called() { ! grep -q -- "$1" "$S/calls" || why "a call matching '$1'"; }
state_is() { [ "$(cat "$S/state/$1" 2>/dev/null)" = "$2" ] || why "state of $1 is '$(cat "$S/state/$1" 2>/dev/null)', want '$2'"; }
logged() { grep -q -- "$1" "$S/syslog" || why "no log line matching '$1'"; }
mails() { [ "$(find "$S" -maxdepth 1 -name 'mail.*' | wc -l)" = "$1" ] || why "$(find "$S" -maxdepth 1 -name 'mail.*' | wc -l) mails, want $1"; }
mailed() { cat "$S"/mail.* 2>/dev/null | grep -q -- "$1" || why "no mail with '$1'"; }
# t NAME SCENARIO: one test; SCENARIO (a function) returns 0 when right
# and said nothing WRONG (why).
t() {
	rm -f "$S/why"
	if "$2" && [ ! -e "$S/why" ]; then ok "$1"; else report; not_ok "$1" "$(head -60 "$out")"; fi
}

# --- scenarios (also run on broken copies by the self-tests) --------------------

# SCRIPT: the follower under test ($script, or a broken copy).
SCRIPT=$script
s_nothing_new() {
	setup
	mkdir -p "$S/state" && echo 6.1.192-3 >"$S/state/6.1" && echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	run "$SCRIPT" || why "exit $?"
	called "apt-get update" && called "apt-cache policy linux-source-6.1" && not_called "apt-get install" &&
		not_called "make " && not_called "gate" && not_called "kernel-repo" && state_is 6.1 6.1.192-3 &&
		logged "6.1.192-3, published already" && mails 0
}
s_new() {
	setup MAILTO=ops@example.org
	mkdir -p "$S/state" && echo 6.1.190-1 >"$S/state/6.1" && echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	run "$SCRIPT" || why "exit $?"
	k=$S/state/config-6.1/config.amd64_none_amd64
	called "apt-get install -y --no-install-recommends linux-source-6.1=6.1.192-3 linux-config-6.1=6.1.192-3" &&
		called "make -C $S/src kernel-deb BUILD=$S/build KERNEL=6.1 KCONFIG=$k KDEB_ROLE=debian" &&
		{ grep -q 'config.amd64_none_amd64 6.1.192-3' "$S/kconfig-seen" || why "KCONFIG is not linux-config-6.1 6.1.192-3's"; } &&
		called "gate 6.1 6.1.192-3 $k $S/build/linux-image-6.1.192-rcuqs2_6.1.192-3+rcuqs2_amd64.deb $S/build/linux-headers-" &&
		called "kernel-repo add --repo $S/repo $S/build/linux-image-6.1.192-rcuqs2_6.1.192-3+rcuqs2_amd64.deb $S/build/linux-headers-6.1.192-rcuqs2_6.1.192-3+rcuqs2_amd64.deb --key ops@example.org" &&
		{ [ "$(grep -n '^gate' "$S/calls" | cut -d: -f1)" -lt "$(grep -n '^kernel-repo' "$S/calls" | cut -d: -f1)" ] || why "published before the gate"; } &&
		state_is 6.1 6.1.192-3 && logged "6.1.192-3 built, gated and published to canary" &&
		mails 1 && mailed "^To: ops@example.org" && mailed "published to canary" && mailed "kernel-repo:   canary"
}
s_next_upload_same_folder() {
	s_new || return 1
	echo 6.1.194-1 >"$S/cand-linux-source-6.1"
	: >"$S/calls"
	run "$SCRIPT" || why "exit $?"
	called "make -C $S/src kernel-deb BUILD=$S/build KERNEL=6.1 KCONFIG=$S/state/config-6.1/config.amd64_none_amd64 KDEB_ROLE=debian" &&
		{ grep -q 'config.amd64_none_amd64 6.1.194-1' "$S/kconfig-seen" || why "KCONFIG is not 6.1.194-1's"; } &&
		state_is 6.1 6.1.194-1
}
s_default_gate() {
	setup BASELINES="6.1 6.12" GATE=
	echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	echo 6.12.118-1~deb12u1 >"$S/cand-linux-source-6.12"
	run "$SCRIPT" || why "exit $?"
	called "make -C $S/src check-quickstart SUITE=bookworm QS_KDEB_DEBS=$S/build/linux-image-6.1.192-rcuqs2_6.1.192-3+rcuqs2_amd64.deb $S/build/linux-headers-6.1.192-rcuqs2_6.1.192-3+rcuqs2_amd64.deb QS_BOOT_TIMEOUT=3600" &&
		{ [ "$(id -u)" != 0 ] || [ "$(grep -A1 'check-quickstart SUITE=bookworm' "$S/calls" | sed -n 2p)" = KDEB_ROLE=debian ] ||
			why "the default gate's make has no KDEB_ROLE=debian in its environment"; } &&
		called "make -C $S/src check-quickstart SUITE=trixie QS_KDEB_DEBS=$S/build/linux-image-6.12.118-rcuqs2_6.12.118-1~deb12u1+rcuqs2_amd64.deb " &&
		called "KERNEL=6.12 KCONFIG=$S/state/config-6.12/config.amd64_none_amd64 KDEB_ROLE=debian" &&
		state_is 6.1 6.1.192-3 && state_is 6.12 6.12.118-1~deb12u1
}
s_own_config() {
	printf 'CONFIG_FLEET=y\n' >"$S/fleet.config"
	setup "KCONFIG_6_12=$S/fleet.config" KDEB_ROLE_6_12=fleet BASELINES=6.12 "GATE_6_12=$S/bin/gate" GATE=
	echo 6.12.120-1 >"$S/cand-linux-source-6.12"
	run "$SCRIPT" || why "exit $?"
	called "apt-get install -y --no-install-recommends linux-source-6.12=6.12.120-1\$" &&
		called "KERNEL=6.12 KCONFIG=$S/fleet.config KDEB_ROLE=fleet" && called "^gate 6.12 6.12.120-1 $S/fleet.config" &&
		state_is 6.12 6.12.120-1
}
# The checkout's real make kernel-deb (make -n) takes the follower's
# arguments: Debian's configuration in the O= folder kdeb-debian
# (kdeb-6.12-debian), the same for the next upload.
s_real_make() {
	setup BASELINES="6.1 6.12"
	: >"$S/real-make"
	echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	echo 6.12.118-1~deb12u1 >"$S/cand-linux-source-6.12"
	run "$SCRIPT" || why "exit $?"
	grep -q "O=$S/build/kdeb-6.12-debian " "$S/real-make.out" &&
		grep -q "configuration $S/state/config-6.12/config.amd64_none_amd64, local version" "$S/real-make.out" ||
		why "make -n kernel-deb KERNEL=6.12: $(grep -m3 'O=\|\*\*\*' "$S/real-make.out")"
	rm -f "$S/state/6.1"
	echo 6.1.194-1 >"$S/cand-linux-source-6.1"
	run "$SCRIPT" || why "exit $?"
	grep -q "O=$S/build/kdeb-debian " "$S/real-make.out" || why "make -n kernel-deb KERNEL=6.1: $(grep -m3 'O=\|\*\*\*' "$S/real-make.out")"
	[ ! -e "$S/build/kdeb-debian" ] || why "make -n created $S/build/kdeb-debian"
}
s_log_prune() {
	setup FOLLOW_LOG_DAYS=30
	mkdir -p "$S/logs" "$S/state" && echo 6.1.192-3 >"$S/state/6.1" && echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	: >"$S/logs/6.1-old-build.log" && touch -d '40 days ago' "$S/logs/6.1-old-build.log"
	: >"$S/logs/6.1-recent-build.log" && touch -d '20 days ago' "$S/logs/6.1-recent-build.log"
	run "$SCRIPT" || why "exit $?"
	[ ! -e "$S/logs/6.1-old-build.log" ] || why "a 40-day-old log kept with FOLLOW_LOG_DAYS=30"
	[ -e "$S/logs/6.1-recent-build.log" ] || why "a 20-day-old log removed with FOLLOW_LOG_DAYS=30"
}

# fail_case WHAT STEP [SAID [NOT_RUN]]: $S/fail-WHAT makes STEP fail:
# nothing published, the state as it was, STEP logged and mailed with
# SAID (the log's tail), NOT_RUN not run; the next run, the failure
# gone, builds and publishes the same version.
fail_case() {
	setup MAILTO=ops@example.org
	mkdir -p "$S/state" && echo 6.1.190-1 >"$S/state/6.1" && echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	: >"$S/fail-$1"
	run "$SCRIPT" && why "exit 0"
	{ [ "$1" = publish ] || not_called "kernel-repo add"; } && { [ -z "${4:-}" ] || not_called "$4"; } &&
		state_is 6.1 6.1.190-1 && logged "FAILED at $2" && logged "unchanged" &&
		mails 1 && mailed "FAILED at $2" && mailed "Subject: .*FAILED" && { [ -z "${3:-}" ] || mailed "$3"; } || return 1
	rm -f "$S/fail-$1"
	: >"$S/calls"
	run "$SCRIPT" || why "the next run: exit $?"
	called "kernel-repo add" && state_is 6.1 6.1.192-3
}
s_fail_build() { fail_case build "build (make kernel-deb)" "kbuild: error (stub)" "^gate"; }
s_fail_gate() { fail_case gate "gate" "rcuqs-ctl verify (stub)"; }
s_fail_publish() { fail_case publish "publish (kernel-repo.sh add)" "could not sign"; }
s_fail_install() { fail_case install "apt-get install linux-source-6.1=6.1.192-3" "Version not found" "kernel-deb"; }
s_fail_update() { fail_case update "apt-get update" "Failed to fetch" "apt-cache"; }
s_fail_no_mailto() {
	setup
	echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	: >"$S/fail-build"
	run "$SCRIPT" && why "exit 0"
	[ ! -e "$S/state/6.1" ] || why "state written"
	logged "FAILED at build" && mails 0
}
s_lock() {
	setup
	echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	mkdir -p "$S/state"
	flock "$S/state/lock" sh -c '"$@"; echo $? >"$S/lock-rc"' run-under-lock env -u INVOCATION_ID PATH="$S/bin:$PATH" \
		RCUQS_FOLLOW_CONFIG="$S/config" RCUQS_FOLLOW_APT_GET="$S/bin/stub-apt-get" \
		RCUQS_FOLLOW_APT_CACHE="$S/bin/stub-apt-cache" RCUQS_FOLLOW_USRSRC="$S/usrsrc" sh "$SCRIPT" >"$S/stdout" 2>&1
	[ "$(cat "$S/lock-rc")" = 1 ] || why "exit $(cat "$S/lock-rc") under the lock, want 1"
	not_called "apt-get" && not_called "make" && [ ! -e "$S/state/6.1" ] && logged "another run holds" &&
		grep -q "another run holds" "$S/stdout" || why "not said on stderr"
}
# bad_case PATTERN ASSIGNMENT...: exit 2, PATTERN said, nothing run.
bad_case() {
	pat=$1
	shift
	setup "$@"
	mkdir -p "$S/state" && echo 6.1.190-1 >"$S/state/6.1"
	echo 6.1.192-3 >"$S/cand-linux-source-6.1"
	run "$SCRIPT"
	r=$?
	[ $r = 2 ] || why "exit $r, want 2"
	grep -q -- "$pat" "$S/stdout" || why "stderr does not say '$pat'"
	logged "$pat" && not_called "apt-get" && not_called "make" && not_called kernel-repo && state_is 6.1 6.1.190-1
}
s_bad_baseline() { bad_case "unknown baseline '6.2'" BASELINES="6.1 6.2"; }
s_bad_repo_unset() { bad_case "REPO is not set" REPO=; }
s_bad_repo_missing() { bad_case "REPO=$S/no-repo does not exist" "REPO=$S/no-repo"; }
s_bad_no_baselines() { bad_case "BASELINES is not set" BASELINES=; }
s_bad_kconfig() { bad_case "KCONFIG_6_1=$S/nothing is not a readable file" "KCONFIG_6_1=$S/nothing"; }
s_bad_kconfig_word() { bad_case "KCONFIG_6_1=fedora: debian, debian-rt" KCONFIG_6_1=fedora; }
s_bad_role() { bad_case "KDEB_ROLE_6_1=a/b" KDEB_ROLE_6_1=a/b; }
s_bad_73_gate() { bad_case "7.3 has no default gate" BASELINES="6.1 7.3" GATE=; }
s_bad_no_config() {
	setup
	run_nc() { env -u INVOCATION_ID PATH="$S/bin:$PATH" RCUQS_FOLLOW_CONFIG="$S/no-config" \
		RCUQS_FOLLOW_APT_GET="$S/bin/stub-apt-get" sh "$SCRIPT" >"$S/stdout" 2>&1; }
	run_nc
	r=$?
	[ $r = 2 ] || why "exit $r, want 2"
	grep -q "$S/no-config: no such file" "$S/stdout" && not_called apt-get
}

t "nothing new: no install, build, gate or publish; the state as it was; logged, not mailed" s_nothing_new
t "a new upload: linux-source and linux-config of it installed, make kernel-deb KERNEL=6.1 with Debian's configuration of that upload and KDEB_ROLE=debian, the gate, then kernel-repo.sh add of its image and headers, the state, a log line, a mail" s_new
t "the next upload: the same KCONFIG path and role (the same O= folder), its own configuration" s_next_upload_same_folder
t "the checkout's own make kernel-deb (make -n) takes the follower's arguments: O=\$BUILD/kdeb-6.12-debian, kdeb-debian for the next 6.1 upload, nothing created" s_real_make
t "logs older than FOLLOW_LOG_DAYS removed, newer ones kept" s_log_prune
t "the default gate: make check-quickstart, SUITE=bookworm for 6.1 and trixie for 6.12, QS_KDEB_DEBS the build's packages (not built again)" s_default_gate
t "a configuration of the fleet's own: its file and KDEB_ROLE_6_12, no linux-config, GATE_6_12" s_own_config
t "the build fails: nothing published, the state as it was, the step logged and mailed with the log's tail; the next run builds it" s_fail_build
t "the gate fails: nothing published, the state as it was, the step logged and mailed; the next run builds it" s_fail_gate
t "the publication fails: the state as it was, the step logged and mailed; the next run publishes it" s_fail_publish
t "apt-get install fails: no build, the state as it was, logged and mailed" s_fail_install
t "apt-get update fails: nothing looked at, the state as it was, logged and mailed once" s_fail_update
t "a failure without MAILTO: logged, no mail" s_fail_no_mailto
t "a second run while one holds the lock: refuses (exit 1), says so, runs nothing" s_lock
t "bad configuration: an unknown baseline, exit 2, nothing run" s_bad_baseline
t "bad configuration: REPO unset, exit 2, nothing run" s_bad_repo_unset
t "bad configuration: REPO missing, exit 2, nothing run" s_bad_repo_missing
t "bad configuration: BASELINES unset, exit 2, nothing run" s_bad_no_baselines
t "bad configuration: a KCONFIG_N file that is not there, exit 2, nothing run" s_bad_kconfig
t "bad configuration: a KCONFIG_N that is no role, exit 2, nothing run" s_bad_kconfig_word
t "bad configuration: a KDEB_ROLE_N with a slash, exit 2, nothing run" s_bad_role
t "bad configuration: 7.3 without a gate (no quick-start suite), exit 2, nothing run" s_bad_73_gate
t "bad configuration: no configuration file, exit 2, nothing run" s_bad_no_config

# --- self-tests: broken copies fail the scenarios ------------------------------
# selftest NAME SCENARIO SED: the script edited by SED must fail SCENARIO.
selftest() {
	sed "$3" "$script" >"$S/broken"
	if cmp -s "$script" "$S/broken"; then
		not_ok "self-test: $1" "the edit '$3' changed nothing"
		return
	fi
	SCRIPT=$S/broken
	rm -f "$S/why"
	if "$2" >/dev/null 2>&1 && [ ! -e "$S/why" ]; then
		not_ok "self-test: $1" "the scenario passed the broken copy (sed '$3')"
	else
		ok "self-test: $1"
	fi
	SCRIPT=$script
}
selftest "a gate failure ignored is caught" s_fail_gate '/failed "$n" "$cand" "gate/{n;d;}'
selftest "a build failure ignored is caught" s_fail_build '/failed "$n" "$cand" "build (make kernel-deb)"/{n;d;}'
selftest "the state written before the gate is caught" s_fail_gate 's|^\tl=$(step_log gate)$|\tprintf "%s\\n" "$cand" >"$FOLLOW_STATE/$n"; l=$(step_log gate)|'
selftest "a build of what was published already is caught" s_nothing_new 's/! dpkg --compare-versions "$cand" gt "$last"/false/'
selftest "no lock is caught" s_lock 's/if ! flock -n 9; then/if false; then/'
selftest "a mail left out is caught" s_fail_build 's/^\tmail_out "rcuqs-kernel-follow on $host: $1/\t: mail_out "x/'
selftest "an unknown baseline accepted is caught" s_bad_baseline 's/^\t6.1 | 6.12 | 7.3) ;;$/\t*) ;;/'

# --- the units and the script's shell -------------------------------------------
units=$top/build-host
check "rcuqs-kernel-follow: sh -n" sh -n "$script"
if command -v shellcheck >/dev/null 2>&1; then
	check "rcuqs-kernel-follow: shellcheck" shellcheck -s sh "$script"
else
	skip "rcuqs-kernel-follow: shellcheck" "shellcheck is not installed"
fi
check "rcuqs-kernel-follow is executable" test -x "$script"
if command -v systemd-analyze >/dev/null 2>&1; then
	# As the timer's host has them: verify exits 0 on warnings, so any
	# output counts as a failure.
	verify_units() {
		m=$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify --man=no "$@" 2>&1)
		r=$?
		[ $r = 0 ] && [ -z "$m" ] || { echo "exit $r: $m"; return 1; }
	}
	check "systemd-analyze verify: rcuqs-kernel-follow.service and .timer, rcuqs-repo-refresh.service and .timer" \
		verify_units "$units/rcuqs-kernel-follow.service" "$units/rcuqs-kernel-follow.timer" \
		"$units/rcuqs-repo-refresh.service" "$units/rcuqs-repo-refresh.timer"
	sed 's/^OnCalendar=daily$/OnCalendar=dailyish/' "$units/rcuqs-kernel-follow.timer" >"$S/rcuqs-kernel-follow.timer"
	if verify_units "$S/rcuqs-kernel-follow.timer" >/dev/null 2>&1; then
		not_ok "self-test: systemd-analyze verify refuses a timer with a bad OnCalendar"
	else
		ok "self-test: systemd-analyze verify refuses a timer with a bad OnCalendar"
	fi
else
	skip "systemd-analyze verify: the build host's units" "systemd-analyze is not installed"
fi
timer_ok() {
	f=$units/rcuqs-kernel-follow.timer
	grep -qx 'OnCalendar=daily' "$f" && grep -qx 'Persistent=true' "$f" && grep -q '^RandomizedDelaySec=' "$f" &&
		grep -qx 'WantedBy=timers.target' "$f" || { echo "$f: want OnCalendar=daily, Persistent=true, RandomizedDelaySec=, WantedBy=timers.target"; return 1; }
}
check "rcuqs-kernel-follow.timer: daily, Persistent, RandomizedDelaySec, WantedBy=timers.target" timer_ok
service_ok() {
	f=$units/rcuqs-kernel-follow.service
	grep -qx 'Type=oneshot' "$f" && grep -qx 'EnvironmentFile=/etc/default/rcuqs-repo' "$f" &&
		grep -q '^ExecStart=.*}/build-host/rcuqs-kernel-follow"' "$f" && grep -qx 'SyslogIdentifier=rcuqs-kernel-follow' "$f" &&
		! grep -q '^TimeoutStartSec=[0-9]' "$f" || { echo "$f: want Type=oneshot, /etc/default/rcuqs-repo, the checkout's build-host/rcuqs-kernel-follow, SyslogIdentifier, no start timeout"; return 1; }
}
check "rcuqs-kernel-follow.service: oneshot, /etc/default/rcuqs-repo, the checkout's script, no start timeout" service_ok

tap_end follow
