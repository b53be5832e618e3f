"""The course's support code: formative feedback for students (:mod:`heimlich_lab.course.formative`).

Graded answers are never here: they live in hidden tests in the instructor's source notebooks
(``instructor/notebooks/``), which the student release does not contain.
"""
