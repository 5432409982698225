#!/bin/sh
# tap-number.sh PREFIX BODY: a one-boot target's TAP from the unnumbered
# lines its test printed (run-guest.sh -o BODY): "ok - X" becomes
# "ok N - PREFIX X", likewise "not ok", anything else is kept, and the
# plan "1..N" ends it. check-rt, check-sockexit and check-study use it.
exec awk -v p="$1" '
/^ok - / { n++; sub(/^ok - /, ""); print "ok " n " - " p " " $0; next }
/^not ok - / { n++; sub(/^not ok - /, ""); print "not ok " n " - " p " " $0; next }
{ print }
END { print "1.." n }' "$2"
