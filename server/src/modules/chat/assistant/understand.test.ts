import { describe, expect, it } from 'vitest';
import { findCountry } from './countries.ts';
import { headWord } from './product-kinds.ts';
import { describeBudget, findBudget, findComparison, findHandOff, findSuperlative, orderIntent, withinBudget } from './understand.ts';

describe('reading a shopper\'s message (issue 36)', () => {
  it('reads budgets in the usual wordings, and leaves ages and sizes alone', () => {
    const b = (text: string) => findBudget(text).budget;
    expect(b('any laptop under $1000?')).toEqual({ max: 1000, strictMax: true });
    expect(b('headphones below 50 dollars')).toEqual({ max: 50, strictMax: true });
    expect(b('less than $200')).toEqual({ max: 200, strictMax: true });
    expect(b('between $50 and $100')).toEqual({ min: 50, max: 100 });
    expect(b('from 20 to 40 dollars')).toEqual({ min: 20, max: 40 });
    expect(b('$50-$100')).toEqual({ min: 50, max: 100 });
    expect(b('around $300')).toEqual({ around: 300 });
    expect(b('about 1.5k')).toEqual({ around: 1500 });
    expect(b('up to $1,200.50')).toEqual({ max: 1200.5 });
    expect(b('over $100')).toEqual({ min: 100, strictMin: true });
    expect(b('$40 or less')).toEqual({ max: 40 });
    expect(b('my budget is 80')).toEqual({ max: 80 });
    expect(b('I can spend $40, any mugs?')).toEqual({ max: 40 });
    expect(b('toys for kids under 5')).toBeNull();
    expect(b('a watch under 5 years old')).toBeNull();
    expect(b('Summit 30L Hiking Backpack')).toBeNull();
    expect(b('red sneakers size 42')).toBeNull();
    expect(findBudget('any laptop under $1000?').rest).not.toContain('1000');
  });

  it('keeps a budget as said: "under" leaves the limit out, "around" is within a quarter', () => {
    expect(withinBudget(1000, { max: 1000, strictMax: true })).toBe(false);
    expect(withinBudget(1000, { max: 1000 })).toBe(true);
    expect(withinBudget(240, { around: 300 })).toBe(true);
    expect(withinBudget(220, { around: 300 })).toBe(false);
    expect(describeBudget({ max: 1000, strictMax: true })).toBe('under $1,000.00');
    expect(describeBudget({ min: 50, max: 100 })).toBe('between $50.00 and $100.00');
  });

  it('reads superlatives', () => {
    const s = (text: string) => findSuperlative(text).superlative;
    expect(s('cheapest smartphone?')).toBe('cheapest');
    expect(s('least expensive kettle')).toBe('cheapest');
    expect(s('what is your most expensive product')).toBe('priciest');
    expect(s('best rated headphones')).toBe('best-rated');
    expect(s('which earbuds are top rated?')).toBe('best-rated');
    expect(s('newest books')).toBe('newest');
    expect(s("what's the best way to clean it")).toBeNull();
    expect(s('do you have the Nova X5?')).toBeNull();
  });

  it('reads comparisons in any wording, offering every cut of a sentence with "and" in a name', () => {
    const sides = (text: string) => findComparison(text)?.splits;
    expect(sides('difference between Buds Pro and Buds Sport')).toEqual([['Buds Pro', 'Buds Sport']]);
    expect(sides('Nova X5 vs Nova Lite')).toEqual([['Nova X5', 'Nova Lite']]);
    expect(sides('which is better, Aurora Studio or Aurora Wireless?')).toEqual([['Aurora Studio', 'Aurora Wireless']]);
    expect(sides('is the Trail Running Shoes better than the Road Racer?')).toEqual([['Trail Running Shoes', 'Road Racer']]);
    expect(sides('how does the Thermo Travel Mug compare to the Morning Ceramic Mug?')).toEqual([['Thermo Travel Mug', 'Morning Ceramic Mug']]);
    expect(sides('compare the Stars and Planets Atlas with the Bedtime Stories Collection')).toEqual([
      ['Stars', 'Planets Atlas with Bedtime Stories Collection'], ['Stars Planets Atlas', 'Bedtime Stories Collection'],
    ]);
    expect(findComparison('Pulse Fit or Pulse Kids?')).toMatchObject({ explicit: false });
    expect(findComparison('Do you have the Nova X5?')).toBeNull();
  });

  it('hears a wish for a person and anger, not ordinary questions', () => {
    expect(findHandOff('Can I talk to a human?')).toBe('asked');
    expect(findHandOff('I want to speak to a real person')).toBe('asked');
    expect(findHandOff('agent please')).toBe('asked');
    expect(findHandOff('let me speak with your manager')).toBe('asked');
    expect(findHandOff('Can a person help me?')).toBe('asked');
    expect(findHandOff('you are useless')).toBe('upset');
    expect(findHandOff('this shop is a joke')).toBe('upset');
    expect(findHandOff('WHERE IS MY ORDER I PAID A WEEK AGO')).toBe('upset');
    expect(findHandOff('where is my order???')).toBe('upset');
    expect(findHandOff('Tell me a joke')).toBeNull();
    expect(findHandOff('I need a gift for someone')).toBeNull();
    expect(findHandOff('Is the US shipping free?')).toBeNull();
  });

  it('weighs order questions: sure, a mere mention, none', () => {
    expect(orderIntent('where is my order?')).toBe(3);
    expect(orderIntent('has my order shipped yet?')).toBe(3);
    expect(orderIntent('can you gift wrap my order?')).toBe(1);
    expect(orderIntent('does the smartwatch track sleep?')).toBe(0);
  });

  it('finds the country a message names, in several languages and short forms', () => {
    expect(findCountry('shipping time to Canada?')).toEqual({ code: 'CA', name: 'Canada' });
    expect(findCountry('do you ship to the US?')).toEqual({ code: 'US', name: 'the United States' });
    expect(findCountry('delivery to the UK')).toEqual({ code: 'GB', name: 'the United Kingdom' });
    expect(findCountry('Deutschland?')).toEqual({ code: 'DE', name: 'Germany' });
    expect(findCountry('ship to U.S.A.')?.code).toBe('US');
    expect(findCountry('can you send it to us?')).toBeNull();
    expect(findCountry('a turkey sandwich')).toBeNull();
    expect(findCountry('do you deliver to Turkey')?.code).toBe('TR');
  });

  it("finds a product name's head word", () => {
    expect(headWord('Zenbook Air 14 Laptop')).toBe('laptop');
    expect(headWord('Zentek Aluminium Laptop Stand')).toBe('stand');
    expect(headWord('Vinyl Desk Speaker Pair')).toBe('speaker');
    expect(headWord('Snake Plant in Ceramic Pot')).toBe('plant');
    expect(headWord('Weekly Planner 2025')).toBe('planner');
  });
});
