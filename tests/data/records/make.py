"""Make the sample game records of this folder (see README.md): run from the repository's
root, ``python tests/data/records/make.py`` (kaggle-environments, open_spiel and
textarena installed). The records are random play, so a rerun makes other games; the
tests read the files kept here, never this script's output."""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


def match():
    subprocess.run([sys.executable, "-m", "scripts.cli", "match", "onestep", "random",
                    "--games", "2", "--openings", "none", "--seed", "1", "--quiet",
                    "--out", os.path.join(HERE, "match.json")], check=True)


def kaggle():
    from kaggle_environments import make
    env = make("connectx", debug=True)
    rng = random.Random(2)

    def seeded_random(obs, config):
        return rng.choice([c for c in range(config.columns) if obs.board[c] == 0])
    env.run([seeded_random, "negamax"])
    write("kaggle_connectx.json", env.toJSON())


def gamearena(name, rows, columns, seed):
    from kaggle_environments import make
    env = make("open_spiel_connect_four", configuration={"openSpielGameParameters": {
        "rows": rows, "columns": columns, "x_in_row": 4}}, debug=True)
    rng = random.Random(seed)

    def legal(obs):
        if "observationString" not in obs:  # the first call: the empty board
            return list(range(columns))
        board = json.loads(obs["observationString"])["board"]
        return [c for c in range(columns) if any(row[c] == "." for row in board)]

    def leftmost(obs, config):
        return {"submission": legal(obs)[0]}

    def seeded_random(obs, config):
        return {"submission": rng.choice(legal(obs))}
    env.run([seeded_random, leftmost])
    write(name, env.toJSON())


def gamearena_forfeit():
    """Both players submit column 3 until the first one the environment refuses (full)."""
    from kaggle_environments import make
    env = make("open_spiel_connect_four")
    env.run([lambda obs, config: {"submission": 3}] * 2)
    write("gamearena_forfeit.json", env.toJSON())


def textarena(name, env_id, answers):
    """A ConnectFour game of TextArena's own env: each player answers from its list in
    turn (the lists hold a garbage answer and an illegal column), then ``[col c]`` of
    a seeded random legal column."""
    import textarena as ta
    env = ta.make(env_id)
    env.reset(num_players=2, seed=3)
    rng = random.Random(3)
    done, turn = False, 0
    while not done:
        pid, _ = env.get_observation()
        board = env.state.game_state["board"]
        scripted = answers.get(turn)
        col = rng.choice([c for c in range(len(board[0])) if board[0][c] == "."])
        done, _ = env.step(scripted if scripted is not None else f"I drop it in [col {col}]")
        turn += 1
    write(name, env.state.logs)


if __name__ == "__main__":
    match()
    kaggle()
    gamearena("gamearena_7x6.json", 6, 7, 4)
    gamearena("gamearena_6x5.json", 5, 6, 5)
    gamearena_forfeit()
    textarena("textarena.json", "ConnectFour-v0", {2: "I think the centre is best.",
                                                   5: "[col 9]"})
    textarena("textarena_12x15.json", "ConnectFour-v0-large", {})
