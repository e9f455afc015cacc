/* Registration of every CUnit suite; one function per tests/unit file.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_SUITES_H
#define SC_SUITES_H

void sc_suite_units(void);
void sc_suite_models(void);
void sc_suite_registry(void);
void sc_suite_commands(void);
void sc_suite_platform(void);
void sc_suite_platform_file(void);
void sc_suite_child(void);
void sc_suite_transport(void);
void sc_suite_loggp(void);
void sc_suite_collectives(void);
void sc_suite_mapping(void);
void sc_suite_external(void);
void sc_suite_objective(void);
void sc_suite_variants(void);
void sc_suite_mapfile(void);
void sc_suite_matrix(void);
void sc_suite_measurements(void);
void sc_suite_calibrate(void);
void sc_suite_profiles(void);
void sc_suite_reduce(void);
void sc_suite_early(void);
void sc_suite_program(void);
void sc_suite_program_graph(void);
void sc_suite_program_run(void);
void sc_suite_trace(void);
void sc_suite_tracefile(void);
void sc_suite_replay(void);
void sc_suite_evaluate(void);
void sc_suite_probe(void);

#endif
