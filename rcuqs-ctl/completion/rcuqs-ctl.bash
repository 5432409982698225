# bash completion for rcuqs-ctl(8)                          -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Installed as /usr/share/bash-completion/completions/rcuqs-ctl, which
# bash-completion loads on the first completion of rcuqs-ctl; "source" it
# to try it without.
#
# Nothing here lists verbs, options or profiles: the tool says them, so
# this cannot go stale. Verbs and their options come from "rcuqs-ctl
# --help" (a command whose synopsis has NAME takes a profile), profile
# names from "rcuqs-ctl list" on the same --root (masked ones left out).

# _rcuqs_ctl_tool WORD: the tool as typed, else /usr/sbin/rcuqs-ctl (a
# user's PATH may lack /usr/sbin, and sudo's completion calls this one).
_rcuqs_ctl_tool()
{
	if type -P -- "$1" >/dev/null 2>&1; then
		printf '%s\n' "$1"
	else
		printf '%s\n' /usr/sbin/rcuqs-ctl
	fi
}

# _rcuqs_ctl_root DIR: root=(--root DIR), a leading ~ or ~USER expanded
# as the shell will expand it when the line runs (the words completion
# sees are as typed).
_rcuqs_ctl_root()
{
	local d=$1 user home
	if [[ $d == \~* ]]; then
		user=${d%%/*}
		user=${user#\~}
		if [[ -z $user ]]; then
			home=$HOME
		else
			home=$(getent passwd -- "$user" 2>/dev/null | cut -d: -f6)
		fi
		[[ -n $home ]] && d=$home${d:1+${#user}}
	fi
	root=(--root "$d")
}

_rcuqs_ctl()
{
	local cur tool help verb="" synopsis="" w i
	local -a root=() words=()

	# bash splits "--root=DIR" at '=' (COMP_WORDBREAKS): join such words
	# again to read the line; values after '=' are not completed.
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 0)) && [[ $w == = || ${words[-1]} == *= ]]; then
			words[-1]+=$w
		else
			words+=("$w")
		fi
	done
	local cword=$((${#words[@]} - 1))
	cur=${words[cword]}
	[[ $cur == *=* ]] && return 0

	tool=$(_rcuqs_ctl_tool "${words[0]}")
	help=$("$tool" --help 2>/dev/null) || return 0

	# "  -r, --root DIR   ..." lines of the Options block: the global
	# options, which may also follow the verb (before a '--').
	local globals
	globals=$(printf '%s\n' "$help" |
		awk '/^Options:/ { on = 1; next } /^[^ ]/ { on = 0 }
			on { for (i = 1; i <= NF && $i ~ /^-/; i++) { sub(/,$/, "", $i); if ($i ~ /^--/) print $i } }')

	# The global options, and the verb after them.
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		-r | --root)
			((i + 1 < cword)) && _rcuqs_ctl_root "${words[i + 1]}"
			((i++))
			;;
		--root=*) _rcuqs_ctl_root "${w#--root=}" ;;
		-r?*) _rcuqs_ctl_root "${w#-r}" ;;
		-*) ;;
		*)
			verb=$w
			break
			;;
		esac
	done

	if [[ -z $verb ]]; then
		case ${words[cword - 1]} in
		-r | --root)
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
			return 0
			;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$globals" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(printf '%s\n' "$help" |
				awk '/^Commands:/ { on = 1; next } /^[^ ]/ || /^$/ { on = 0 } on { print $1 }')" -- "$cur"))
		fi
		return 0
	fi

	# The verb's synopsis: the first column of its line under "Commands:".
	synopsis=$(printf '%s\n' "$help" | awk -v v="$verb" '
		/^Commands:/ { on = 1; next } /^[^ ]/ || /^$/ { on = 0 }
		on && $1 == v { sub(/^  +/, ""); split($0, a, /  +/); print a[1] }')
	[[ -n $synopsis ]] || return 0

	# --root after the verb counts as well as before it.
	local j dashdash=""
	for ((j = i + 1; j < cword; j++)); do
		w=${words[j]}
		case $w in
		--)
			dashdash=1
			break
			;;
		-r | --root)
			((j + 1 < cword)) && _rcuqs_ctl_root "${words[j + 1]}"
			((j++))
			;;
		--root=*) _rcuqs_ctl_root "${w#--root=}" ;;
		-r?*) _rcuqs_ctl_root "${w#-r}" ;;
		esac
	done

	# An option's value: --output DIR is a directory, --format WORD one of
	# the words the synopsis names after it; others (numbers) are the user's.
	case ${words[cword - 1]} in
	--output | -r | --root)
		[[ -n $dashdash && ${words[cword - 1]} != --output ]] && return 0
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0
		;;
	--*)
		w=${words[cword - 1]}
		if [[ " $synopsis " == *[\ []"$w "[A-Z]* ]]; then
			return 0
		elif [[ " $synopsis " == *[\ []"$w "[a-z]* ]]; then
			w=" $synopsis "
			w=${w#*"${words[cword - 1]} "}
			COMPREPLY=($(compgen -W "${w%%[] ]*}" -- "$cur"))
			return 0
		fi
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$({ printf '%s\n' "$synopsis" | grep -oE -- '--[a-z][a-z-]*'
			[[ -n $dashdash ]] || printf '%s\n' "$globals" | grep -vxE -- '--(help|version)'; } | sort -u)" -- "$cur"))
		return 0
	fi

	# A profile NAME, once: the first operand of a verb that takes one.
	[[ " $synopsis " == *[\ []NAME[\ \]]* ]] || return 0
	local operands=0
	for ((i = i + 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--) ;;
		--*=*) ;;
		-r | --root) ((i++)) ;;
		-*)
			# An option that takes a value (an upper-case word after it in
			# the synopsis, or a word like "tuned") skips it.
			[[ " $synopsis " == *[\ []"$w "[!\[\ ]* ]] && ((i++))
			;;
		*) ((operands++)) ;;
		esac
	done
	((operands == 0)) || return 0
	COMPREPLY=($(compgen -W "$("$tool" "${root[@]}" list 2>/dev/null |
		awk 'NR > 1 { if ($1 == "*") $1 = ""; $0 = $0; if ($2 != "masked") print $1 }')" -- "$cur"))
	return 0
}
complete -F _rcuqs_ctl rcuqs-ctl
