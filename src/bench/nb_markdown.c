/* The one markdown-table writer (nanobench.h, doc/harness.md "Markdown
 * tables"): fixed-width cells, the rule line with its alignment colons, and
 * the escaping that keeps any text inside its cell. It knows nothing of
 * results; the result table, the comparison table and the Big-O table are
 * written with it. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <string.h>

static int ok_of(FILE *out)
{
    return ferror(out) ? -1 : 0;
}

static void repeat(FILE *out, int c, size_t n)
{
    while (n--)
        putc(c, out);
}

size_t nb_markdown_width(const char *text)
{
    size_t n = 0;
    if (!text)
        return 0;
    for (; *text; ++text)   /* characters: a UTF-8 continuation byte adds none */
        n += ((unsigned char)*text & 0xC0) == 0x80 ? 0 : *text == '|' ? 2 : 1;
    return n;
}

int nb_markdown_text(FILE *out, const char *text)
{
    if (!out)
        return -1;
    if (!text)
        return ok_of(out);
    /* GFM splits cells on '|' even inside a code span, so it is escaped
     * everywhere; a line break would end the row */
    for (; *text; ++text) {
        if (*text == '|')
            fputs("\\|", out);
        else
            putc(*text == '\n' || *text == '\r' ? ' ' : *text, out);
    }
    return ok_of(out);
}

int nb_markdown_code(FILE *out, const char *text)
{
    size_t run = 0, longest = 0, len, i;
    const char *p;
    int pad;
    if (!out)
        return -1;
    if (!text)
        text = "";
    /* delimited by one backtick more than the longest run inside, padded
     * with a space where the text starts or ends with one (CommonMark strips
     * one space each side) */
    for (p = text; *p; ++p) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    len = (size_t)(p - text);
    pad = len && (text[0] == '`' || text[len - 1] == '`');
    for (i = 0; i <= longest; ++i)
        putc('`', out);
    if (pad)
        putc(' ', out);
    nb_markdown_text(out, text);
    if (pad)
        putc(' ', out);
    for (i = 0; i <= longest; ++i)
        putc('`', out);
    return ok_of(out);
}

int nb_md_cell_parts(FILE *out, const nb_column *col, const char *const *parts, size_t n)
{
    size_t w = 0, i, width;
    if (!out || !col)
        return -1;
    width = col->width > 0 ? (size_t)col->width : 0;
    for (i = 0; i < n; ++i)
        w += nb_markdown_width(parts[i]);
    putc('|', out);
    repeat(out, ' ', col->lead > 0 ? (size_t)col->lead : 0);
    if (col->align == NB_ALIGN_RIGHT && w < width)
        repeat(out, ' ', width - w);
    for (i = 0; i < n; ++i)
        nb_markdown_text(out, parts[i]);
    if (width > 0) {
        if (col->align != NB_ALIGN_RIGHT && w < width)
            repeat(out, ' ', width - w);
        putc(' ', out);
    }
    return ok_of(out);
}

int nb_markdown_cell(FILE *out, const nb_column *col, const char *text)
{
    return nb_md_cell_parts(out, col, &text, 1);
}

int nb_markdown_rule(FILE *out, const nb_column *cols, size_t n)
{
    size_t i;
    if (!out || (!cols && n))
        return -1;
    for (i = 0; i < n; ++i) {
        const nb_column *c = &cols[i];
        size_t lead = c->lead > 0 ? (size_t)c->lead : 0;
        /* as wide as the cell: lead, text, and the space after it (an open
         * column: its header's text) */
        size_t total = lead + 1 + (c->width > 0 ? (size_t)c->width
                                                : nb_markdown_width(c->header));
        putc('|', out);
        if (c->align == NB_ALIGN_LEFT)
            putc(':', out);
        repeat(out, '-', c->align == NB_ALIGN_NONE ? total : total - 1);
        if (c->align == NB_ALIGN_RIGHT)
            putc(':', out);
    }
    putc('\n', out);
    return ok_of(out);
}

int nb_markdown_header(FILE *out, const nb_column *cols, size_t n)
{
    size_t i;
    if (!out || (!cols && n))
        return -1;
    for (i = 0; i < n; ++i)
        nb_markdown_cell(out, &cols[i], cols[i].header);
    putc('\n', out);
    return nb_markdown_rule(out, cols, n);
}

int nb_markdown_row(FILE *out, const nb_column *cols, size_t n, const char *const cells[])
{
    size_t i;
    if (!out || (n && (!cols || !cells)))
        return -1;
    for (i = 0; i < n; ++i)
        nb_markdown_cell(out, &cols[i], cells[i]);
    putc('\n', out);
    return ok_of(out);
}
