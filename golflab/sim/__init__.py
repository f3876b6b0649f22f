"""The parts of ``golflab.simulation`` (the public front: ``simulate``, ``summarize``), one
job each: ``players`` (who sits where), ``dispatch`` (reference or compiled), ``games`` (the
reference loop and its rows), ``graded`` (rows from the compiled grader), ``tasks`` (a chunk by
the engine allowed), ``columns`` (the frames' columns), ``tally`` (results and running
totals), ``progress`` (the text bar), ``pool`` (worker processes, executors and signals) and
``run`` (checking the arguments, playing the chunks)."""
