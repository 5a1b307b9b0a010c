"""Bitwarden's password and passphrase generator, made deterministic: the random stream is a hash of the
options, the simulated day and how many passwords the vault has retired, so the same request in the same state
gives the same value while every password change moves it on. Organization password-generator policies raise
the options to their minimums, as the real generator does."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from envfactory_gym import InvalidRequest

LOWER = "abcdefghijkmnopqrstuvwxyz"  # ambiguous characters (l, I, O, 0, 1) are avoided
UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ"
NUMBERS = "23456789"
SPECIAL = "!@#$%^&*"
WORDS = """
abacus abdomen ablaze acorn acrobat actress adapter adhesive admiral adobe aerobics afar agenda aggregate alarm
album alchemy alfalfa algebra alibi almanac alpaca amber ambush amulet anchor anemone angler antelope anthem
apricot aquarium arcade archway armchair aroma arrow artichoke ashtray aspen atlas attic avalanche avocado
backpack badge bagel balcony bamboo banjo barley barnacle basil bazooka beacon beanbag bedrock begonia bellhop
bicycle binder biscuit blender blizzard blossom blueberry bobcat bonfire bookcase boomerang borrow boulder
bouquet bracelet breeze brisket broccoli bubble buckle buffalo bulldozer bungalow burrito butterfly cabbage
cactus calendar camel campfire canary candle canoe canyon caramel cardigan carousel cashew castle catalog cavern
cello chamomile chariot cheetah cherry chimney chipmunk chowder cinnamon citadel clarinet clover cobalt coconut
comet compass concrete coral corduroy cottage cougar crayon cricket crocodile crouton cupcake cyclone daffodil
dandelion dazzle decoy delta denim desert dewdrop diamond dinosaur dolphin domino doorbell dragonfly drizzle
dugout dumpling eagle easel eclipse eggplant elastic elbow elephant elevator ember emerald engine envelope
espresso eucalyptus falcon fanfare feather fedora ferry fiddle fireplace flamingo flannel flashlight flotilla
fountain foxglove freckle frostbite gadget galaxy gazebo gecko geyser ginger giraffe glacier gondola gorilla
granola grapefruit gravel griddle guitar gumball hammock harbor harmonica hazelnut hedgehog helium hemlock
hibiscus hiccup honeybee horizon hummus hyacinth iceberg igloo iguana inkwell island jackal jaguar jamboree
jasmine javelin jellybean jukebox juniper kayak kettle keyboard kiwi koala labyrinth ladle lagoon lantern
lasagna lavender lemonade lilac limestone lobster locket lullaby macaroni magnolia mailbox mandolin mango maple
marble marigold marmalade meadow meteor mitten molasses monsoon moonbeam mosaic muffin mustang napkin nectar
nightcap nomad nutmeg oasis oatmeal octopus olive omelet opal orbit orchard origami otter oyster paddle pagoda
panther papaya parsley peacock pebble pelican penguin peppermint pepper pinecone pistachio plankton platypus
plum pocket polka pomegranate popcorn porcupine pretzel prism pudding puffin pumpkin quartz quiver raccoon
radish rainbow raisin raspberry ravioli redwood reindeer rhubarb ribbon riverbank rocket rosemary saddle saffron
salamander sapphire sardine satchel scarecrow seagull seashell sequoia sherbet skylark snowflake sombrero
sparrow spinach squirrel starfish sunflower swallow sycamore tadpole tambourine tangerine teapot telescope
thimble thistle thunder toboggan tortoise toucan trombone tulip turnip tuxedo umbrella unicorn upstream valley
vanilla velvet violin volcano waffle walnut walrus waterfall whistle wigwam willow windmill wombat woodpecker
yodel yogurt zeppelin zucchini
""".split()  # noqa: SIM905


@dataclass(frozen=True)
class Options:
    """What to generate (the query parameters of GET /generate)."""

    passphrase: bool = False
    length: int = 14
    uppercase: bool = True
    lowercase: bool = True
    number: bool = True
    special: bool = False
    min_number: int = 1
    min_special: int = 1
    words: int = 3
    separator: str = "-"
    capitalize: bool = False
    include_number: bool = False


def apply_policies(options: Options, policies: list[dict[str, Any]]) -> Options:
    """Raise the options to what password-generator policies require (their `data`)."""
    for data in (p["data"] or {} for p in policies):
        options = replace(
            options,
            length=max(options.length, data.get("minLength") or 0),
            uppercase=options.uppercase or bool(data.get("useUpper")),
            lowercase=options.lowercase or bool(data.get("useLower")),
            number=options.number or bool(data.get("useNumbers")),
            special=options.special or bool(data.get("useSpecial")),
            min_number=max(options.min_number, data.get("minNumbers") or 0),
            min_special=max(options.min_special, data.get("minSpecial") or 0),
            words=max(options.words, data.get("minNumberWords") or 0),
            capitalize=options.capitalize or bool(data.get("capitalize")),
            include_number=options.include_number or bool(data.get("includeNumber")),
        )
    return options


def validate(options: Options) -> None:
    """The generator's own limits."""
    if options.passphrase:
        if not 3 <= options.words <= 20:
            raise InvalidRequest("A passphrase has 3 to 20 words.")
        if len(options.separator) > 1:
            raise InvalidRequest("The word separator is a single character.")
        return
    if not 5 <= options.length <= 128:
        raise InvalidRequest("Password length must be between 5 and 128.")
    if not (options.uppercase or options.lowercase or options.number or options.special):
        raise InvalidRequest("Select at least one of uppercase, lowercase, numbers or special characters.")


class _Stream:
    """Deterministic integers from a seed string (SHA-256 in counter mode)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.counter = 0

    def below(self, bound: int) -> int:
        self.counter += 1
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % bound


def generate(options: Options, day: str, retired: int) -> str:
    """The password or passphrase for these options on `day` with `retired` passwords in the vault's history."""
    validate(options)
    stream = _Stream(f"{day}|{retired}|{json.dumps(asdict(options), sort_keys=True)}")
    if options.passphrase:
        words = [WORDS[stream.below(len(WORDS))] for _ in range(options.words)]
        if options.capitalize:
            words = [w.capitalize() for w in words]
        if options.include_number:
            index = stream.below(len(words))
            words[index] += str(stream.below(10))
        return options.separator.join(words)
    pools = [pool for pool, used in ((LOWER, options.lowercase), (UPPER, options.uppercase)) if used]
    slots = []
    if options.number:
        slots += [NUMBERS] * options.min_number
    if options.special:
        slots += [SPECIAL] * options.min_special
    slots += pools  # at least one of every chosen class; the length grows to fit the minimums
    everything = "".join(pools) + (NUMBERS if options.number else "") + (SPECIAL if options.special else "")
    slots += [everything] * max(0, options.length - len(slots))
    for i in range(len(slots) - 1, 0, -1):  # Fisher-Yates shuffle of the character classes
        j = stream.below(i + 1)
        slots[i], slots[j] = slots[j], slots[i]
    return "".join(pool[stream.below(len(pool))] for pool in slots)
