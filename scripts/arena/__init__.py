"""The library of games between agents: specs, the one game loop, pools, schedules,
statistics, reports and replays. No argparse, no printing (the commands do that)."""
