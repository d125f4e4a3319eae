# Stand-in in the layout of the real file.
ENV_NAMES = [
            'pick_and_place',
            'look_at_obj',
        ]
