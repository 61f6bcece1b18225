"""Example Saint Malo bot: keeps heads, prefers merchants next to crates, else the first legal action."""

from sdk.games import saint_malo as sm
from sdk.games.plugin import DecisionContext
from sdk.games.saint_malo.bot import SaintMaloBot
from sdk.serve import run


def crates_near(state: sm.State, action: sm.Action) -> int:  # for a merchant; 0 for anything else
    if isinstance(action, sm.PlacePerson) and action.person == sm.Person.MERCHANT:
        return (sm.ADJACENT[action.space] & state.cities[state.current].crates).bit_count()
    return 0


class ExampleBot(SaintMaloBot):
    name = "example"
    version = "1.0"

    def keep(self, state: sm.State, context: DecisionContext) -> sm.Keep:
        return sm.Keep(sm.mask_of(*(die for die, face in enumerate(state.dice) if face != sm.Symbol.HEAD)))

    def choose(self, state: sm.State, context: DecisionContext) -> sm.Choose:
        return sm.Choose(max(state.available_symbols(), key=lambda symbol: symbol == sm.Symbol.HEAD))

    def rotate(self, state: sm.State, context: DecisionContext) -> sm.Rotate:
        legal = [action for action in state.legal_actions() if isinstance(action, sm.Rotate)]
        return min(legal, key=lambda action: action.dice.bit_count())

    def place(self, state: sm.State, context: DecisionContext) -> sm.Place:
        legal = [action for action in state.iter_legal_actions() if isinstance(action, sm.Place)]
        return max(legal, key=lambda action: crates_near(state, action))

    def bonus_person(self, state: sm.State, context: DecisionContext) -> sm.PlacePerson:
        legal = [action for action in state.iter_legal_actions() if isinstance(action, sm.PlacePerson)]
        return max(legal, key=lambda action: crates_near(state, action))


if __name__ == "__main__":
    run(ExampleBot())
