"""Never answers: an endless loop in act."""


def act(state):
    n = 0
    while True:
        n += 1
