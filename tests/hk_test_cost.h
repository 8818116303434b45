/* hk_test_cost.h — `hooke stability`'s outputs with their CPU times masked, so that two runs' outputs compare. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_COST_H
#define HK_TEST_COST_H

#include <string.h>

/* The CSV column and the table's (whitespace-separated) field that hold the CPU time per simulated second. */
#define HK_COST_CSV_COLUMN 10
#define HK_COST_TABLE_FIELD 5

/* Replaces [a, b) of text with one '*', in place. */
static inline void hk_cost_star(char *a, char *b)
{
    *a = '*';
    memmove(a + 1, b, strlen(b) + 1);
}

/* Every line of a stability CSV after its header: the cpu_s_per_sim_s cell becomes "*". */
static inline void hk_mask_cost_csv(char *text)
{
    char *line = strchr(text, '\n');
    while (line && line[1]) {
        char *p = line + 1;
        for (int c = 0; c < HK_COST_CSV_COLUMN && p; c++) {
            p = strpbrk(p, ",\n");
            p = p && *p == ',' ? p + 1 : NULL;
        }
        if (p) hk_cost_star(p, p + strcspn(p, ",\n"));
        line = strchr(line + 1, '\n');
    }
}

/* The rows below the table's "cpu [s/s]" header line, up to the next blank line: their CPU field becomes "*". */
static inline void hk_mask_cost_table(char *text)
{
    char *head = strstr(text, "cpu [s/s]");
    char *line = head ? strchr(head, '\n') : NULL;
    while (line && line[1] && line[1] != '\n') {
        char *p = line + 1;
        for (int f = 0; f < HK_COST_TABLE_FIELD; f++) {
            p += strspn(p, " ");
            p += strcspn(p, " \n");
        }
        p += strspn(p, " ");
        if (*p && *p != '\n') hk_cost_star(p, p + strcspn(p, " \n"));
        line = strchr(line + 1, '\n');
    }
}

#endif
