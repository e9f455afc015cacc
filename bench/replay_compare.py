#!/usr/bin/env python3
"""simcoll --replay against the actors, from the command line: every listed
algorithm that both engines run, on ib4x.xml and gige.xml, np 1 to 24, 8 B
and 64 KiB, size only. Prints how many pairs agree in every column of the
CSV (but the command, the partitioner's wall time and valid, which a
replayed barrier leaves empty) and the largest differences per platform.

    bench/replay_compare.py [SIMCOLL]        # default build/simcoll; needs python3

SPDX-License-Identifier: GPL-2.0-or-later"""
import csv
import io
import subprocess
import sys

simcoll = sys.argv[1] if len(sys.argv) > 1 else 'build/simcoll'
listing = subprocess.run([simcoll, 'list'], capture_output=True, text=True, check=True).stdout
algos = [line.split()[0] for line in listing.splitlines()[1:] if line.strip()]
ignored = {'command', 'partition_wall_time_s', 'valid'}
pairs = agree = 0
differ = []
for platform in ('ib4x.xml', 'gige.xml'):
    for algo in algos:
        for np_ in range(1, 25):
            for size in ('8', '64K'):
                run = [simcoll, '--platform', platform, '--algo', algo, '--np', str(np_),
                       '--size', size, '--no-payload', '--format', 'csv']
                actors = subprocess.run(run, capture_output=True, text=True)
                if actors.returncode != 0:  # refused: a power of two only, a root, ...
                    continue
                replay = subprocess.run(run + ['--replay'], capture_output=True, text=True)
                if replay.returncode != 0:  # refused by --replay: data-dependent algorithms
                    continue
                a = next(csv.DictReader(io.StringIO(actors.stdout)))
                r = next(csv.DictReader(io.StringIO(replay.stdout)))
                pairs += 1
                if all(a[k] == r[k] for k in a if k not in ignored):
                    agree += 1
                    continue
                worst = max(abs(float(a[k]) - float(r[k])) / float(a[k])
                            for k in ('sim_time_s', 'mean_rank_time_s'))
                differ.append((worst, platform, algo, np_, size, a['sim_time_s'], r['sim_time_s']))
print(f'{pairs} pairs, {agree} agree in every column')
for platform in ('ib4x.xml', 'gige.xml'):
    mine = sorted((d for d in differ if d[1] == platform), reverse=True)
    print(f'{platform}: {len(mine)} differ')
    for worst, _, algo, np_, size, t_actors, t_replay in mine[:5]:
        print(f'  {algo} np {np_} {size} B: {100 * worst:.1f}% (simulated {t_actors} s with '
              f'actors, {t_replay} s replayed)')
