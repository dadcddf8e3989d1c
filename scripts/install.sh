#!/bin/sh
# Installs reel under PREFIX (DESTDIR prepended, for packagers): the tool, the bundled samples the
# defaults find (PREFIX/share/reel/Samples), the man page and the bash, zsh and fish completions
# generated from the tool's own commands, and the licence files. `make install` builds the tool
# first; this script installs what it is given:
#   PREFIX=/usr/local REEL=path/to/reel MANUAL_TOOL=path/to/generate-manual scripts/install.sh
# MANUAL_TOOL is swift-argument-parser's generate-manual (`swift build --product generate-manual`).
set -eu

: "${PREFIX:?PREFIX is not set}" "${REEL:?REEL (the built reel) is not set}" "${MANUAL_TOOL:?MANUAL_TOOL (generate-manual) is not set}"
root=$(cd "$(dirname "$0")/.." && pwd)
dest="${DESTDIR:-}$PREFIX"
for file in "$REEL" "$MANUAL_TOOL"; do
    [ -x "$file" ] || { echo "install: '$file' is not an executable" >&2; exit 2; }
done

bin="$dest/bin" share="$dest/share/reel" man="$dest/share/man/man1" doc="$dest/share/doc/reel"
bash_completions="$dest/share/bash-completion/completions" zsh_completions="$dest/share/zsh/site-functions"
fish_completions="$dest/share/fish/vendor_completions.d"
mkdir -p "$bin" "$share" "$man" "$doc" "$bash_completions" "$zsh_completions" "$fish_completions"

# The tool, replaced atomically (a running reel keeps its old file).
cp "$REEL" "$bin/.reel.new"
chmod 755 "$bin/.reel.new"
mv -f "$bin/.reel.new" "$bin/reel"

# The samples, without the references only the tests read.
rm -rf "$share/Samples.new"
mkdir -p "$share/Samples.new"
(cd "$root/Samples" && tar -cf - --exclude=./references .) | (cd "$share/Samples.new" && tar -xf -)
rm -rf "$share/Samples"
mv "$share/Samples.new" "$share/Samples"

# Generated from the commands: the man page and the completions.
# generate-manual leaves the blank lines between paragraphs of the top-level help as they are,
# which mdoc warns about and joins with the lines around; they become paragraph breaks (.Pp).
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
"$MANUAL_TOOL" "$bin/reel" --output-directory "$pages" >/dev/null
sed 's/^$/.Pp/' "$pages/reel.1" >"$man/reel.1"
"$bin/reel" --generate-completion-script bash >"$bash_completions/reel"
"$bin/reel" --generate-completion-script zsh >"$zsh_completions/_reel"
"$bin/reel" --generate-completion-script fish >"$fish_completions/reel.fish"

cp "$root/LICENSE" "$root/NOTICE" "$root/README.md" "$doc/"
echo "installed reel $("$bin/reel" --version) in $dest: bin/reel, share/reel/Samples, share/man/man1/reel.1, completions, share/doc/reel"
