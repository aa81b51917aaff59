/* Analyses a chapter's reference three times in one process, as the
 * full-screen course does when a learner saves: the analysis of the file
 * compared with is reused the second time, and made again after that file
 * changes. Prints one line per analysis: "kept N comparison M".
 *   cache_probe CHAPTER FILE_TO_CHANGE   (CLTUTOR_DATA names the course) */
#define _DEFAULT_SOURCE
#include "gpumodel/gpumodel.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

static int analyse(const catalog *cat, const paths *p, const lesson *l, gpumodel_cache *cache) {
    engine_request rq;
    engine_request_defaults(&rq);
    rq.lesson = l;
    char kernel[1400];
    paths_solution(p, l, kernel, sizeof kernel);
    rq.kernel_path = kernel;
    gpumodel_report rep;
    gpumodel_analyze_chapter(&rq, cat, p, 1, cache, NULL, NULL, NULL, &rep);
    printf("kept %d comparison %d\n", rep.prev_kept, rep.n_compare);
    int ok = rep.status == GM_OK;
    if (!ok) fprintf(stderr, "%s\n", rep.message);
    gpumodel_report_free(&rep);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) return 64;
    char err[1024], lessons[1200];
    paths p;
    if (paths_init(&p, NULL, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 1;
    paths_lessons(&p, lessons, sizeof lessons);
    catalog cat;
    if (catalog_load(&cat, lessons, err, sizeof err) != 0) return fprintf(stderr, "%s\n", err), 1;
    const lesson *l = catalog_find(&cat, argv[1]);
    if (!l) return fprintf(stderr, "no chapter %s\n", argv[1]), 1;
    gpumodel_cache cache = {0}; /* the course's: one per owner, kept between analyses */
    if (!analyse(&cat, &p, l, &cache) || !analyse(&cat, &p, l, &cache)) return 1;
    FILE *f = fopen(argv[2], "a"); /* the file compared with changes */
    if (!f) return perror(argv[2]), 1;
    fputs("\n/* changed */\n", f);
    fclose(f);
    int ok = analyse(&cat, &p, l, &cache);
    gpumodel_cache_free(&cache);
    catalog_free(&cat);
    return ok ? 0 : 1;
}
