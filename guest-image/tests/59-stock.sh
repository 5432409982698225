# boots: cmdline
# rcuqs-ctl recommend on a stock kernel, from what a stock Debian kernel
# exposes (/proc/stat, /proc/softirqs, the nohz_full layout): this kernel
# with the series hidden from the tool. In a private mount namespace a
# tmpfs covers /sys/kernel and /sys/module/rcutree/parameters, and every
# entry of theirs is bound back onto it except the series' own: the
# marker and counters folder rcu_qs, and the knobs cond_resched_qs_limit
# and jiffies_till_nohz_qs (rcuqs-ctl/kernel.c, counters.c).
#   - status there says: no rcuqs kernel support, no rcuqs patches (and
#     exits 3, the tool's status for a kernel without them)
#   - a cond_resched() loop on nohz_full CPU 2: recommend exits 0 and
#     names rcutree.jiffies_till_sched_qs=1 first (no build), then the
#     rcuqs kernel
#   - an idle system: recommend exits 0 with no change
# Nothing here depends on how fast the guest is.
. "$RCUQS_LIB/lib.sh"

stock_tmp=$(mktemp -d)
mkdir "$stock_tmp/kernel" "$stock_tmp/rcutree" "$stock_tmp/ns"

# The hidden view is made once, before any load, and kept: unshare
# --mount=FILE binds the new namespace to FILE (on a private mount, as
# the kernel requires), and stock_ctl enters it with nsenter. Making it
# takes a mount per entry, tens of seconds in a busy emulator: made per
# call, it would eat the loop a recommend is to sample.
mount --bind "$stock_tmp/ns" "$stock_tmp/ns" && mount --make-private "$stock_tmp/ns" &&
	: >"$stock_tmp/ns/mnt" || nok "a private mount for the namespace file"
t0=$SECONDS
unshare --mount="$stock_tmp/ns/mnt" --propagation private bash -c '
	# hide DIR KEEP NAME...: DIR as it was, less NAMEs; the original
	# stays reachable at KEEP.
	hide() {
		local dir=$1 keep=$2 e n
		shift 2
		mount --rbind "$dir" "$keep" && mount -t tmpfs stock "$dir" || return
		for e in "$keep"/*; do
			n=${e##*/}
			case " $* " in *" $n "*) continue ;; esac
			if [ -d "$e" ]; then mkdir "$dir/$n"; else : >"$dir/$n"; fi
			mount --rbind "$e" "$dir/$n" || return
		done
	}
	hide /sys/kernel "$1/kernel" rcu_qs || exit 90
	hide /sys/module/rcutree/parameters "$1/rcutree" \
		cond_resched_qs_limit jiffies_till_nohz_qs || exit 91' stock-ns "$stock_tmp"
rc=$?
check "the namespace with the series hidden is made (exit $rc, $((SECONDS - t0)) s)" \
	eval '[ $rc = 0 ]'

# stock_ctl ARGS...: rcuqs-ctl ARGS in that namespace; the suite's own
# mounts stay as they are.
stock_ctl() {
	nsenter --mount="$stock_tmp/ns/mnt" rcuqs-ctl "$@"
}

# The setting first: the tool must take it as a stock kernel.
out=$(stock_ctl status 2>&1)
rc=$?
diag "$(head -n 4 <<<"$out")"
# status exits 3 there, as on any kernel without the patches (rcuqs-ctl(8)).
line=$(grep -E '^(rcuqs kernel support|kernel): ' <<<"$out" | tr '\n' ' ')
check "status with the series hidden: exits 3, no rcuqs kernel support, no rcuqs patches (exit $rc: $line)" \
	eval '[ $rc = 3 ] && grep -q "^rcuqs kernel support: no" <<<"$out" &&
		grep -q "^kernel: [^,]*, no rcuqs patches" <<<"$out"'
# The hiding is private: the suite's own view still has the series.
check "the series is still there outside the namespace ($Q/gp_completed, $P/$(knob2))" \
	eval '[ -e $Q/gp_completed ] && [ -e "$P/$(knob2)" ]'

rec_ctl=stock_ctl
recommend_during loop cpu=2 "${LOAD[@]}"
t=$(grep -m1 '^time in the kernel' <<<"$rec_out")
want="rcutree.jiffies_till_sched_qs=1 on the kernel command line first"
check "stock, cond_resched() loop on nohz_full CPU 2: recommend exits 0 and names the boot parameter first, then the rcuqs kernel (exit $rec_rc, got '$rec'$(
	[[ $rec_rc = 0 && $rec == "$want"*"the rcuqs kernel"* ]] || echo "; sampled $rec_rates; $t"))" \
	eval '[ "$rec_rc" = 0 ] && [[ $rec == "$want"*"the rcuqs kernel"* ]]'

recommend_during idle
t=$(grep -m1 '^time in the kernel' <<<"$rec_out")
check "stock, idle system: recommend exits 0 with no change (exit $rec_rc, got '$rec'$(
	[[ $rec_rc = 0 && $rec == "no change"* ]] || echo "; sampled $rec_rates; $t"))" \
	eval '[ "$rec_rc" = 0 ] && [[ $rec == "no change"* ]]'
rec_ctl=rcuqs-ctl
umount "$stock_tmp/ns/mnt" && umount "$stock_tmp/ns" || nok "umount the namespace file"
rm -r "$stock_tmp"
