#!/usr/bin/env bash
# Renders the first table of a report's .tex file as a small PNG (the README's
# docs/img/latex-table1-vs-paper.png): pdfLaTeX sets the table on a page cut
# to its size and pdftoppm rasterises it. Needs pdflatex and pdftoppm.
#
# Usage: scripts/latex-shot.sh TABLE.tex OUT.png
set -euo pipefail
tex="$(realpath "$1")"
out="$(realpath -m "$2")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# \mhtable defined here first, so the file's \providecommand keeps ours: it
# boxes the first table (caption, tabular, notes) instead of floating it.
cat >"$work/shot.tex" <<TEX
\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{booktabs}
\usepackage{graphicx}
\newsavebox\shot
\newcount\shots
\newcommand\mhtable[3]{\ifnum\shots=0 \global\sbox\shot{\begin{minipage}{390pt}\centering\small\setlength\tabcolsep{4pt}%
  Table 1: #1\par\smallskip #2\par\smallskip{\footnotesize\raggedright #3\par}\end{minipage}}\fi\global\advance\shots by 1 }
\begin{document}
\input{$tex}
\hoffset=-1in \voffset=-1in
\pdfpagewidth=\dimexpr\wd\shot+16pt\relax
\pdfpageheight=\dimexpr\ht\shot+\dp\shot+16pt\relax
\shipout\vbox{\kern8pt\hbox{\kern8pt\usebox\shot}}
\end{document}
TEX
(cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error shot.tex >/dev/null)
pdftoppm -r 130 -png -singlefile "$work/shot.pdf" "${out%.png}"
