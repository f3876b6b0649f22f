"""The parts of ``golflab.simulation`` (the public front: ``simulate``, ``summarize``), in the order
a run goes through them: ``run`` (the arguments checked, the progress shown, the chunks played and
passed on in game order), ``pool`` (worker processes and executors, safe against signals),
``games`` (the seats, reference or compiled, the reference's loop, a chunk's rows), ``graded`` (a
chunk's rows from the compiled grader, imported only when it runs) and ``results`` (the columns,
the frames and the running totals)."""
