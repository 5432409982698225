#!/bin/bash
# complete.sh FILE LINE...: source the bash completion FILE as bash does,
# print its "complete -p rcuqs-ctl", then for each command LINE (the cursor
# at its end) the words the completion offers, sorted, one line each:
# "LINE -> WORD WORD ...". Words are split as bash splits them for
# completion: at blanks, and at '=' (COMP_WORDBREAKS).
set -u
file=$1
shift
. "$file" || exit 1
complete -p rcuqs-ctl || exit 1
for line in "$@"; do
	COMP_WORDS=()
	for w in $line; do
		while [[ $w == *=* ]]; do
			[[ -n ${w%%=*} ]] && COMP_WORDS+=("${w%%=*}")
			COMP_WORDS+=("=")
			w=${w#*=}
		done
		[[ -n $w ]] && COMP_WORDS+=("$w")
	done
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	func=$(complete -p rcuqs-ctl | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
	"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s ->%s\n' "$line" "$(printf ' %s' "${COMPREPLY[@]}" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//; s/^/ /; s/^ $//')"
done
