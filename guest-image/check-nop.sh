#!/bin/bash
# check-nop.sh VARIANT: with rcutree.cond_resched_qs_limit at 0 (the
# default), cond_resched() pays one NOP for the limit: the static key's
# jump site in __cond_resched(). Checks the built vmlinux on the host (no
# guest needed) and prints unnumbered TAP lines:
#   - __cond_resched() reaches its first return through exactly one NOP
#     (2-byte 66 90 or 5-byte 0f 1f 44 00 00, the jump-label forms) and
#     with nothing of the limit (no countdown, no call);
#   - the limit's countdown and its call (rcu_cond_resched_qs) are still
#     in the function, out of line, behind that NOP.
set -uo pipefail
v=${1:?usage: check-nop.sh VARIANT}
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$here/.." && pwd)/build}
vmlinux=$BUILD/kernel-$v/vmlinux

# 7.3's series has no limit (kernel-patches/7.3/README, "Patch 2"): its
# cond_resched() never runs on x86, so there is no fast path to check.
release=$(cat "$BUILD/kernel-$v/include/config/kernel.release" 2>/dev/null)
case $release in
7.*)
	for d in "limit off, __cond_resched() fast path has one jump-label NOP and nothing of the limit" \
		"the limit's countdown and call sit out of line, after the fast path's return"; do
		echo "ok - [nop] $v: $d # SKIP $release has no cond_resched() limit (kernel-patches/7.3/README)"
	done
	exit 0
	;;
esac

dis=$(objdump -d --disassemble=__cond_resched "$vmlinux" 2>/dev/null |
	sed -n '/<__cond_resched>:$/,/^$/p')
if [ -z "$dis" ]; then
	echo "not ok - [nop] $v: __cond_resched found in $vmlinux"
	exit 1
fi
# Up to and including the first return, and what follows it.
head=$(awk '{ print } /\tret/ { exit }' <<<"$dis")
tail=$(awk 'f { print } /\tret/ { f = 1 }' <<<"$dis")
nops=$(grep -cE ':\s+(66 90 |0f 1f 44 00 00 )' <<<"$head")
limit_calls='call .*<rcu_cond_resched_qs>'
countdown='<rcu_cond_resched_qs_countdown>'
rc=0
if [ "$nops" = 1 ] && ! grep -qE "$limit_calls|$countdown" <<<"$head"; then
	echo "ok - [nop] $v: limit off, __cond_resched() fast path has one jump-label NOP and nothing of the limit"
else
	echo "not ok - [nop] $v: limit off, __cond_resched() fast path has one jump-label NOP and nothing of the limit"
	echo "# $nops NOP(s) before the first ret; fast path:"
	sed 's/^/#   /' <<<"$head"
	rc=1
fi
if grep -qE "$limit_calls" <<<"$tail" && grep -q "$countdown" <<<"$tail"; then
	echo "ok - [nop] $v: the limit's countdown and call sit out of line, after the fast path's return"
else
	echo "not ok - [nop] $v: the limit's countdown and call sit out of line, after the fast path's return"
	sed 's/^/#   /' <<<"$dis" | head -40
	rc=1
fi
exit $rc
