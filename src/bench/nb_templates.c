/* The built-in templates (doc/templates.md): CSV, JSON, the HTML report,
 * pyperf's and Google Benchmark's JSON. The report is a file of its own,
 * src/bench/templates/report.html, turned into nb_report_html at build time. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

const char *nb_templ_csv(void)
{
    return "{{%csv}}"
           "title;name;unit;batch;elapsed;error fraction;instructions;branches;branch misses;"
           "total\n"
           "{{#result}}{{title}};{{name}};{{unit}};{{batch}};{{median(elapsed)}};"
           "{{medianAbsolutePercentError(elapsed)}};{{median(instructions)}};"
           "{{median(branchinstructions)}};{{median(branchmisses)}};"
           "{{sumProduct(iterations, elapsed)}}\n"
           "{{/result}}";
}

const char *nb_templ_json(void)
{
    return "{{%json}}{\n"
           "    \"results\": [\n"
           "{{#result}}        {\n"
           "            \"title\": \"{{title}}\",\n"
           "            \"name\": \"{{name}}\",\n"
           "            \"unit\": \"{{unit}}\",\n"
           "            \"batch\": {{batch}},\n"
           "            \"complexityN\": {{complexityN}},\n"
           "            \"epochs\": {{epochs}},\n"
           "            \"clockResolution\": {{clockResolution}},\n"
           "            \"clockResolutionMultiple\": {{clockResolutionMultiple}},\n"
           "            \"maxEpochTime\": {{maxEpochTime}},\n"
           "            \"minEpochTime\": {{minEpochTime}},\n"
           "            \"minEpochIterations\": {{minEpochIterations}},\n"
           "            \"epochIterations\": {{epochIterations}},\n"
           "            \"warmup\": {{warmup}},\n"
           "            \"relative\": {{relative}},\n"
           "            \"comparedTo\": \"{{comparedTo}}\",\n"
           "            \"ratio\": {{ratio}},\n"
           "            \"ratioLow\": {{ratioLow}},\n"
           "            \"ratioHigh\": {{ratioHigh}},\n"
           "            \"significant\": {{significant}},\n"
           "            \"fastest\": {{fastest}},\n"
           "            \"baseline\": {{baseline}},\n"
           "            \"median(elapsed)\": {{median(elapsed)}},\n"
           "            \"medianAbsolutePercentError(elapsed)\": "
           "{{medianAbsolutePercentError(elapsed)}},\n"
           "            \"median(instructions)\": {{median(instructions)}},\n"
           "            \"medianAbsolutePercentError(instructions)\": "
           "{{medianAbsolutePercentError(instructions)}},\n"
           "            \"median(cpucycles)\": {{median(cpucycles)}},\n"
           "            \"median(estcycles)\": {{median(estcycles)}},\n"
           "            \"lowerQuartile(estcycles)\": {{lowerQuartile(estcycles)}},\n"
           "            \"medianAbsolutePercentError(estcycles)\": "
           "{{medianAbsolutePercentError(estcycles)}},\n"
           "            \"median(contextswitches)\": {{median(contextswitches)}},\n"
           "            \"median(pagefaults)\": {{median(pagefaults)}},\n"
           "            \"median(branchinstructions)\": {{median(branchinstructions)}},\n"
           "            \"median(branchmisses)\": {{median(branchmisses)}},\n"
           "            \"totalTime\": {{sumProduct(iterations, elapsed)}},\n"
           "            \"measurements\": [\n"
           "{{#measurement}}                {\n"
           "                    \"iterations\": {{iterations}},\n"
           "                    \"elapsed\": {{elapsed}},\n"
           "                    \"pagefaults\": {{pagefaults}},\n"
           "                    \"cpucycles\": {{cpucycles}},\n"
           "                    \"estcycles\": {{estcycles}},\n"
           "                    \"contextswitches\": {{contextswitches}},\n"
           "                    \"instructions\": {{instructions}},\n"
           "                    \"branchinstructions\": {{branchinstructions}},\n"
           "                    \"branchmisses\": {{branchmisses}}\n"
           "                }{{^-last}},{{/-last}}\n"
           "{{/measurement}}            ]\n"
           "        }{{^-last}},{{/-last}}\n"
           "{{/result}}    ]\n"
           "}\n";
}

/* A self-contained HTML report (no network): the results as JSON inside the page, and a
 * small script of its own that draws one SVG chart per title and unit (every epoch a point,
 * a box over the middle half, the median a bar; a log axis where the values span more than
 * two decades) and a table under each. */
const char *nb_templ_html(void)
{
    return nb_report_html;   /* src/bench/templates/report.html, embedded by the build */
}

/* nanobench's boxplot page, kept for programs that call it: now the same self-contained
 * report as nb_templ_html (the old page loaded its plotting library from the network). */
const char *nb_templ_html_boxplot(void)
{
    return nb_templ_html();
}

/* pyperf's JSON (format version 1.0): a suite with one benchmark per result, named by the
 * result's name; one run per epoch, whose "loops" is the epoch's iterations and whose one
 * value is the time of one inner loop: seconds per iteration over inner_loops, the batch (so
 * value x loops x inner_loops is the epoch's time, as pyperf computes it). A batch that is
 * not a whole number fails the render: pyperf refuses a fractional inner_loops. */
const char *nb_templ_pyperf(void)
{
    return "{{%json}}{\n"
           "    \"version\": \"1.0\",\n"
           "    \"benchmarks\": [\n"
           "{{#result}}        {\n"
           "            \"metadata\": {\n"
           "                \"name\": \"{{name}}\",\n"
           "                \"description\": \"{{title}}\",\n"
           "                \"unit\": \"second\",\n"
           "                \"inner_loops\": {{innerLoops}}\n"
           "            },\n"
           "            \"runs\": [\n"
           "{{#measurement}}                {\"metadata\": {\"loops\": {{iterations}}}, "
           "\"values\": [{{perUnit(elapsed)}}]}{{^-last}},{{/-last}}\n"
           "{{/measurement}}            ]\n"
           "        }{{^-last}},{{/-last}}\n"
           "{{/result}}    ]\n"
           "}\n";
}

/* Google Benchmark's JSON (what --benchmark_format=json writes), so that its compare.py and
 * the services that take its output read our results: per result, one "iteration" entry per
 * epoch (the epoch's iterations and seconds per iteration; cpu_time is the same wall time: the
 * harness times one thread by the clock), then the mean, median and standard deviation of
 * the epochs as "aggregate" entries named NAME_mean, NAME_median, NAME_stddev. Times are in
 * the result's time unit (nb_time_unit: ns by default; compare.py knows ns, us, ms and s). */
const char *nb_templ_gbench(void)
{
    return "{{%json}}{{%timeunit}}{\n"
           "    \"context\": {\n"
           "        \"library\": \"nanobench-c\",\n"
           "        \"title\": \"{{title}}\"\n"
           "    },\n"
           "    \"benchmarks\": [\n"
           "{{#result}}{{#measurement}}        {\n"
           "            \"name\": \"{{runName}}\",\n"
           "            \"run_name\": \"{{runName}}\",\n"
           "            \"run_type\": \"iteration\",\n"
           "            \"repetitions\": {{epochs}},\n"
           "            \"threads\": 1,\n"
           "            \"iterations\": {{iterations}},\n"
           "            \"real_time\": {{elapsed}},\n"
           "            \"cpu_time\": {{elapsed}},\n"
           "            \"time_unit\": \"{{timeUnit}}\"\n"
           "        },\n"
           "{{/measurement}}"
           "        {\n"
           "            \"name\": \"{{runName}}_mean\",\n"
           "            \"run_name\": \"{{runName}}\",\n"
           "            \"run_type\": \"aggregate\",\n"
           "            \"repetitions\": {{epochs}},\n"
           "            \"threads\": 1,\n"
           "            \"aggregate_name\": \"mean\",\n"
           "            \"aggregate_unit\": \"time\",\n"
           "            \"iterations\": {{epochs}},\n"
           "            \"real_time\": {{average(elapsed)}},\n"
           "            \"cpu_time\": {{average(elapsed)}},\n"
           "            \"time_unit\": \"{{timeUnit}}\"\n"
           "        },\n"
           "        {\n"
           "            \"name\": \"{{runName}}_median\",\n"
           "            \"run_name\": \"{{runName}}\",\n"
           "            \"run_type\": \"aggregate\",\n"
           "            \"repetitions\": {{epochs}},\n"
           "            \"threads\": 1,\n"
           "            \"aggregate_name\": \"median\",\n"
           "            \"aggregate_unit\": \"time\",\n"
           "            \"iterations\": {{epochs}},\n"
           "            \"real_time\": {{median(elapsed)}},\n"
           "            \"cpu_time\": {{median(elapsed)}},\n"
           "            \"time_unit\": \"{{timeUnit}}\"\n"
           "        },\n"
           "        {\n"
           "            \"name\": \"{{runName}}_stddev\",\n"
           "            \"run_name\": \"{{runName}}\",\n"
           "            \"run_type\": \"aggregate\",\n"
           "            \"repetitions\": {{epochs}},\n"
           "            \"threads\": 1,\n"
           "            \"aggregate_name\": \"stddev\",\n"
           "            \"aggregate_unit\": \"time\",\n"
           "            \"iterations\": {{epochs}},\n"
           "            \"real_time\": {{standardDeviation(elapsed)}},\n"
           "            \"cpu_time\": {{standardDeviation(elapsed)}},\n"
           "            \"time_unit\": \"{{timeUnit}}\"\n"
           "        }{{^-last}},{{/-last}}\n"
           "{{/result}}    ]\n"
           "}\n";
}
