# shellcheck shell=sh
# fake-deb.sh: stand-in Debian packages for the tests (tests/repo,
# tests/deb). Sourced; then
#
#   fake_deb OUT PACKAGE VERSION [PATH CONTENT]...
#
# builds OUT/PACKAGE_VERSION_amd64.deb holding those files (CONTENT and a
# newline each), owned by root, with a control file that says it is a
# stand-in.
fake_deb() {
	_fd_out=$1 _fd_p=$2 _fd_v=$3 _fd_d=$1/.fake-deb-$2
	shift 3
	rm -rf "$_fd_d"
	mkdir -p "$_fd_d/DEBIAN"
	while [ $# -ge 2 ]; do
		mkdir -p "$_fd_d$(dirname "$1")"
		printf '%s\n' "$2" >"$_fd_d$1"
		shift 2
	done
	printf '%s\n' "Package: $_fd_p" "Version: $_fd_v" "Architecture: amd64" \
		"Maintainer: rcuqs tests <rcuqs-tests@invalid>" "Section: kernel" "Priority: optional" \
		"Description: fake $_fd_p for the rcuqs tests" " Made by tests/lib/fake-deb.sh; no kernel in it." \
		>"$_fd_d/DEBIAN/control"
	dpkg-deb --root-owner-group --build "$_fd_d" "$_fd_out/${_fd_p}_${_fd_v}_amd64.deb" >/dev/null
	_fd_rc=$?
	rm -rf "$_fd_d"
	return $_fd_rc
}
