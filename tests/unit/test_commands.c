/* Consistency of the command table that sc_cli_main dispatches from.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/commands.h"
#include "suites.h"

static void test_table(void)
{
    int unnamed = 0;
    CU_ASSERT_PTR_NULL(sc_commands[0].name); /* the collective run, --help's first line */
    for (const sc_command_t *c = sc_commands; c->run; c++) {
        CU_ASSERT_PTR_NOT_NULL(c->usage[0]);
        unnamed += !c->name;
        if (!c->name)
            continue;
        /* its usage shows how to call it: by its name */
        size_t len = strlen(c->name);
        CU_ASSERT_TRUE(c->usage[0] && !strncmp(c->usage[0], c->name, len) &&
                       c->usage[0][len] == ' ');
        for (const sc_command_t *d = c + 1; d->run; d++)
            CU_ASSERT_TRUE(!d->name || strcmp(c->name, d->name) != 0);
    }
    CU_ASSERT_EQUAL(unnamed, 1);
}

static void test_usage(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sc_cli_usage(f);
    CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
    int forms = 0, ors = 0;
    for (const sc_command_t *c = sc_commands; c->run; c++)
        forms += 1 + (c->usage[1] != NULL);
    const char *sep = "\n  or:  simcoll ";
    for (const char *p = strstr(text, sep); p; p = strstr(p + 1, sep))
        ors++;
    CU_ASSERT_EQUAL(strncmp(text, "Usage: simcoll --platform FILE ", 31), 0);
    CU_ASSERT_EQUAL(ors, forms - 1);
    free(text);
}

void sc_suite_commands(void)
{
    CU_pSuite s = CU_add_suite("commands", NULL, NULL);
    CU_add_test(s, "table", test_table);
    CU_add_test(s, "usage", test_usage);
}
