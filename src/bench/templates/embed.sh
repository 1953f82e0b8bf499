#!/bin/sh
# Writes, on stdout, a C file that defines `const char NAME[]` holding FILE's text: each line
# one string literal, with \, " and ? escaped (? against trigraphs under -std=c99). The build
# turns the report template (report.html) into C this way, so that the template stays a file
# an HTML tool can read and the library still carries it.
# Usage: embed.sh NAME FILE
set -eu
name=$1
file=$2
printf '/* Generated from %s by embed.sh: edit that file, not this one. */\n' "${file##*/}"
printf '#include "bench/nb_internal.h"\n\n'
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/	/\\t/g' \
    -e 's/^/    "/' -e 's/$/\\n"/' "$file"
printf '    ;\n'
