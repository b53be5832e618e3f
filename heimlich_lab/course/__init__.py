"""The course's support code.

- :mod:`heimlich_lab.course.formative`: formative feedback for students (the form of an answer, never the answer);
- :mod:`heimlich_lab.course.markup`: the exercise markup (nbgrader's cells and regions), read from a notebook;
- :mod:`heimlich_lab.course.release`: the student release (nbgrader's ``generate_assignment``), and the search of
  a release for answer material;
- :mod:`heimlich_lab.course.grading`: ``heimlich-lab grade``, the autograder (nbgrader's ``autograde`` and
  ``generate_feedback``), a grade table and feedback pages.

Graded answers are never here: they live in hidden tests in the instructor's source notebooks
(``instructor/notebooks/``), which the student release does not contain (docs/assessment.md). nbgrader (the
``instructor`` extra) is imported only when a release or a grading runs.
"""
