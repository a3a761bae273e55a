import { describe, expect, it } from 'vitest';
import { isSpecIntro, isSpecList } from './spec-sheet';

describe('isSpecIntro: a line that names the list after it a spec sheet', () => {
  it.each([
    ['Specification:', true],
    ['Specifications', true],
    ['Key specs:', true],
    ['Suptronics X1013 specifications:', true],
    ['Технические характеристики:', true],
    ['Характеристики', true],
    ['The specifications of the new board are impressive, and here is why:', false],
    ['Pros:', false],
    ['What we tested', false],
  ])('%s → %s', (line, want) => expect(isSpecIntro(line)).toBe(want));
});

describe('isSpecList: a list that is a spec sheet by its own rows', () => {
  it.each<[string, string[], boolean]>([
    ['a laptop\'s sheet', ['Processor: AMD Ryzen 5 7640HS', 'Graphics: Nvidia RTX 4050', 'Memory: 16GB DDR5', 'Storage: 512GB SSD', 'Display: 16-inch, 1920 x 1200, 165Hz IPS', 'Battery life: 7.5+ hours'], true],
    ['rows with dashes', ['Dimensions – 107.5 x 85mm', 'Weight – 120 g', 'Input – 9 to 18V DC / 3A', 'Ports – 4x USB 3.0'], true],
    ['three rows are too few', ['CPU: 8 cores', 'RAM: 16 GB', 'SSD: 1 TB'], false],
    ['labels with sentences after them are prose', ['Battery: It lasts 10 hours. That is long enough for a flight.', 'Screen: Bright and sharp. Colours pop.', 'Keyboard: Comfortable. Keys travel 1.5 mm.', 'Price: High. But it is 20% off.'], false],
    ['prose items', ['Preheat the oven to 200 degrees.', 'Mix 2 cups of flour with the butter.', 'Bake for 25 minutes.', 'Let it cool for 10 minutes.'], false],
    ['rows without numbers: a glossary, not a sheet', ['Noun: a word for a thing', 'Verb: a word for an action', 'Adjective: a word for a quality', 'Adverb: a word for a manner'], false],
    ['a list of long rows is prose', ['Date: '.concat('a long description of the day and what happens on it, with talks from 9 to 5 and more '.repeat(2)), 'Place: '.concat('the old hall by the river, 2 minutes from the station, where the fair has been held since 1990'), 'Doors: 9 am', 'Tickets: 20 euros'], false],
  ])('%s → %s', (_name, items, want) => expect(isSpecList(items)).toBe(want));
});
