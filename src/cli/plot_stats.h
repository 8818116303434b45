/* plot_stats.h — `hooke plot`: the statistics CSV of `hooke run --stats` as stacked panels against time. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PLOT_STATS_H
#define HOOKE_PLOT_STATS_H

#include <stddef.h>

/* The title, with its unit, of the panel a stats CSV's column is drawn in (volume_3: "Volume (m³)"), into out;
 * 0, or -1 for a column that hooke run does not write (out: its name, the title of its panel). */
int hk_plot_column_title(const char *name, char *out, size_t len);

/* `hooke plot STATS.csv [--out FILE.png|.svg|.pdf] [--columns LIST] [--width W --height H]`; returns an exit
 * status. */
int hk_cmd_plot(int argc, char **argv);

#endif
