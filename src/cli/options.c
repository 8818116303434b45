/* options.c — a command's table of options parsed by getopt_long, and printed as its help text. */
/* SPDX-License-Identifier: MIT */
#include "options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The id getopt_long returns for row i of the table (above every character code). */
#define ROW_CODE(i) (256 + (i))

/* "--help" is every command's, spelled out here once. */
static const char help_text[] = "print this help and exit";

static int rows(const hk_command *cmd)
{
    int n = 0;
    while (cmd->options && cmd->options[n].name) n++;
    return n;
}

/* Where to look, for messages: "(see hooke run --help)". */
static void see(const hk_command *cmd, char *out, size_t cap)
{
    snprintf(out, cap, "(see hooke %s%s--help)", cmd->name ? cmd->name : "", cmd->name ? " " : "");
}

void hk_opt_begin(hk_opt_parser *p, const hk_command *cmd, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    const int n = rows(cmd);
    struct option *lo = calloc((size_t)n + 2, sizeof *lo);
    if (lo) {
        for (int i = 0; i < n; i++)
            lo[i] = (struct option){cmd->options[i].name, cmd->options[i].value ? required_argument : no_argument, NULL,
                                    ROW_CODE(i)};
        lo[n] = (struct option){"help", no_argument, NULL, 'h'};
    }
    p->longopts = lo;
    optind = 0; /* a fresh scan (glibc) */
    opterr = 0;
}

void hk_opt_end(hk_opt_parser *p)
{
    free(p->longopts);
    p->longopts = NULL;
}

/* "unknown option 'ARG' for CMD", and the options it begins when there are
 * any (an abbreviation, which getopt_long would take). HK_OPT_ERROR. */
static int unknown(const hk_opt_parser *p, const char *arg)
{
    char help[96], hint[512] = "";
    see(p->cmd, help, sizeof help);
    const size_t len = strcspn(arg, "=");
    const hk_option *match[64];
    int nmatch = 0;
    if (len > 2 && strncmp(arg, "--", 2) == 0)
        for (const hk_option *o = p->cmd->options; o && o->name && nmatch < 64; o++)
            if (strncmp(o->name, arg + 2, len - 2) == 0) match[nmatch++] = o;
    size_t used = 0;
    for (int i = 0; i < nmatch && used < sizeof hint; i++)
        used += (size_t)snprintf(hint + used, sizeof hint - used, "%s--%s",
                                 i == 0           ? ": did you mean "
                                 : i + 1 < nmatch ? ", "
                                                  : " or ",
                                 match[i]->name);
    fprintf(stderr, "hooke: error: unknown option '%.*s'%s%s%s%s %s\n", (int)len, arg, p->cmd->name ? " for " : "",
            p->cmd->name ? p->cmd->name : "", hint, nmatch ? "?" : "", help);
    return HK_OPT_ERROR;
}

int hk_opt_next(hk_opt_parser *p, const char **value)
{
    *value = NULL;
    p->flag[0] = '\0';
    if (!p->longopts) {
        fprintf(stderr, "hooke: error: out of memory\n");
        return HK_OPT_ERROR;
    }
    if (p->rest) { /* after "--": arguments only */
        if (p->rest >= p->argc) return HK_OPT_END;
        *value = p->argv[p->rest++];
        return HK_OPT_ARG;
    }
    /* "-": every argument in order (code 1 for one that is no option); ":": quiet, ':' for a missing value */
    const struct option *lo = p->longopts;
    const int c = getopt_long(p->argc, p->argv, p->cmd->name ? "-:h" : "+:h", lo, NULL);
    const int n = rows(p->cmd);
    if (c == -1) {
        if (optind < p->argc && p->cmd->name) { /* "--" ended the options */
            p->rest = optind;
            return hk_opt_next(p, value);
        }
        if (optind < p->argc) { /* the top level: the command and its arguments */
            *value = p->argv[optind];
            return HK_OPT_ARG;
        }
        return HK_OPT_END;
    }
    if (c == 1) {
        *value = optarg;
        return HK_OPT_ARG;
    }
    if (c == 'h') {
        /* "--help=x" is refused by getopt_long ('?' below); "-h" and "--help" come here */
        return HK_OPT_HELP;
    }
    /* the element getopt_long read last (its value, when given apart, is after it) */
    const char *arg = p->argv[optind - 1];
    if (c == ':' || c == '?') {
        const int row = optopt - ROW_CODE(0);
        if (c == ':' && row >= 0 && row < n) { /* a value option given last, with no value */
            snprintf(p->flag, sizeof p->flag, "--%s", p->cmd->options[row].name);
            return p->cmd->options[row].id;
        }
        if (c == '?' && ((row >= 0 && row < n) || optopt == 'h') && strncmp(arg, "--", 2) == 0 && strchr(arg, '=')) {
            fprintf(stderr, "hooke: error: %.*s expects no value, got '%s'\n", (int)strcspn(arg, "="), arg,
                    strchr(arg, '=') + 1);
            return HK_OPT_ERROR;
        }
        if (optopt > 0 && optopt < 256) { /* a short option: "-x" */
            char s[3] = {'-', (char)optopt, '\0'};
            return unknown(p, s);
        }
        return unknown(p, arg);
    }
    const int row = c - ROW_CODE(0);
    if (row < 0 || row >= n) return unknown(p, arg);
    const hk_option *o = &p->cmd->options[row];
    /* the option as typed: "--NAME", "--NAME=VALUE" (or "--NAME" then VALUE); getopt_long also takes
     * unambiguous abbreviations, which are refused so that a new option never changes what a command line means */
    const char *typed = o->value && optarg == arg && optind >= 2 ? p->argv[optind - 2] : arg;
    const size_t len = strcspn(typed, "=");
    if (!(len == strlen(o->name) + 2 && strncmp(typed + 2, o->name, len - 2) == 0)) return unknown(p, typed);
    snprintf(p->flag, sizeof p->flag, "--%s", o->name);
    *value = optarg;
    return o->id;
}

void hk_opt_print(FILE *f, const hk_command *cmd)
{
    enum { COLUMN = 21 }; /* where the help text starts */
    for (const hk_option *o = cmd->options; o && o->name; o++) {
        char head[96], text[1024];
        snprintf(head, sizeof head, "  --%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        if (o->help_arg)
            snprintf(text, sizeof text, o->help, o->help_arg());
        else
            snprintf(text, sizeof text, "%s", o->help);
        const char *line = text;
        int first = 1;
        while (*line) {
            const size_t n = strcspn(line, "\n");
            if (first && strlen(head) < COLUMN)
                fprintf(f, "%-*s%.*s\n", COLUMN, head, (int)n, line);
            else if (first)
                fprintf(f, "%s\n%*s%.*s\n", head, COLUMN, "", (int)n, line);
            else
                fprintf(f, "%*s%.*s\n", COLUMN, "", (int)n, line);
            first = 0;
            line += n + (line[n] == '\n');
        }
    }
    fprintf(f, "%-*s%s\n", COLUMN, "  -h, --help", help_text);
}
