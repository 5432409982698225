#!/bin/sh
# run-step.sh NAME COMMAND...: run one part of 'make check', keep going on
# failure, and make sure a failure shows up in $RESULTS as a 'not ok' line
# even when the part died before writing its own TAP.
set -u
name=$1
shift
: "${RESULTS:?RESULTS is not set}"
mkdir -p "$RESULTS"
echo "=== $name: $*"
start=$(date +%s)
"$@"
rc=$?
echo "=== $name: exit $rc after $(($(date +%s) - start)) s"
# A step writes its TAP as $RESULTS/NAME*.tap.
if [ "$rc" -ne 0 ] && ! cat "$RESULTS/$name"*.tap 2>/dev/null | grep -q '^not ok '; then
	echo "not ok - $name: '$*' exited $rc" >>"$RESULTS/$name-step.tap"
fi
exit 0
