"""Errors for bad input. Every one is a :class:`ValueError`, and every one leaves
the game, record or belief it was raised from exactly as it was."""


class HeimlichError(ValueError):
    """Base class of all heimlich-lab input errors."""


class NotationError(HeimlichError):
    """A string is not valid action notation (see ``docs/notation.md``).

    ``rule`` is always ``"notation"``, so that every error of ``Game.apply`` has a ``.rule``; the
    message itself stays as it was (it says what is wrong with the text).

    >>> NotationError("empty action").rule
    'notation'
    """

    rule = "notation"


class IllegalAction(HeimlichError):
    """A well-formed action that the rules do not allow now.

    ``rule`` names the rule it breaks (a short key, see docs/rules.md#rule-keys-and-errors).
    """

    def __init__(self, message: str, rule: str = "legal-actions"):
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule


class WrongPlayer(IllegalAction):
    """An action given for a player whose decision it is not."""


class PositionError(HeimlichError):
    """A start position that is not a possible game state."""


class RecordError(HeimlichError):
    """A malformed or inconsistent game record."""


class ModelError(HeimlichError):
    """A player model returned invalid likelihoods, or a belief was asked something impossible."""


class InformationRuleError(ModelError):
    """Code acting for an observer was handed information that observer may not have
    (docs/rules.md#information-rule)."""
