"""Collect badges from a server flat out, as a prankster's helper: `python bench/earner.py URL`.

It loads the page over and over, as one browser after another, and writes each badge it is
given on a line ("given <cookie value>"); once the address has none left to give, it earns each
with a proof of work (server/edge/badges.py), found in this process, on a core of its own, and
writes "earned <cookie value>". It runs until it is killed.
"""

import asyncio
import sys

import aiohttp
from load import page_badge


async def main(url):
    async with aiohttp.ClientSession() as session:
        while True:
            badge, earned = await page_badge(session, url)
            if badge is None:
                await asyncio.sleep(0.05)  # the page not served (paced): try again
            else:
                print("earned" if earned else "given", badge, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
