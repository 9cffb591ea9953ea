/* CAPTURE_WINDOW_RANKS with the launchers' rank variables (first set of
   RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID wins; none
   set is rank 0). An unselected rank opens no windows. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_RANKS=1 RANK=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=1 RANK=0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
//
// cw-run: CAPTURE_WINDOW_RANKS=0,4-7 OMPI_COMM_WORLD_RANK=5
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=0,4-7 OMPI_COMM_WORLD_RANK=3 --mode=off
// cw-expect: .step@0..5 .eval@0..3
//
// cw-run: CAPTURE_WINDOW_RANKS=0,4-7 OMPI_COMM_WORLD_RANK=7
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=0
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
//
// cw-run: CAPTURE_WINDOW_RANKS=2 RANK=2 OMPI_COMM_WORLD_RANK=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=1 RANK=2 OMPI_COMM_WORLD_RANK=1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
//
// cw-run: CAPTURE_WINDOW_RANKS=3 PMI_RANK=3
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=4 SLURM_PROCID=4
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_RANKS=all RANK=9
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
#include "env_program.h"
