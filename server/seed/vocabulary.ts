/**
 * Word lists and catalogues the demo seed draws from: names, places, plans and prices, traffic
 * sources and affiliate nicknames, log messages. Emails use only example.com / example.org.
 */

/** Given names of the seeded customers. */
export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Alice',
  'Amara',
  'Amir',
  'Anna',
  'Arjun',
  'Aylin',
  'Beatriz',
  'Ben',
  'Bianca',
  'Carla',
  'Carlos',
  'Chen',
  'Chloe',
  'Daniel',
  'Dara',
  'David',
  'Diego',
  'Elena',
  'Eli',
  'Emma',
  'Erik',
  'Fatima',
  'Felix',
  'Fiona',
  'Gabriel',
  'Grace',
  'Hana',
  'Hugo',
  'Ines',
  'Isaac',
  'Ivy',
  'Jack',
  'Jana',
  'Jonas',
  'Julia',
  'Kai',
  'Karim',
  'Kenji',
  'Lara',
  'Leo',
  'Lena',
  'Liam',
  'Lucia',
  'Maya',
  'Marco',
  'Maria',
  'Mateo',
  'Mia',
  'Nadia',
  'Noah',
  'Nora',
  'Olga',
  'Omar',
  'Oscar',
  'Paula',
  'Priya',
  'Quinn',
  'Rafael',
  'Rosa',
  'Ruth',
  'Sam',
  'Sara',
  'Sofia',
  'Tariq',
  'Theo',
  'Uma',
  'Valentina',
  'Victor',
  'Wei',
  'Yara',
  'Yusuf',
  'Zoe',
  'Zane',
  'Hannah',
  'Peter',
  'Linda',
  'George',
  'Helen',
] as const;

/** Family names of the seeded customers. */
export const LAST_NAMES = [
  'Adams',
  'Ahmed',
  'Alvarez',
  'Andersen',
  'Baker',
  'Becker',
  'Bianchi',
  'Brown',
  'Campbell',
  'Chen',
  'Costa',
  'Cruz',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Gonzalez',
  'Green',
  'Hall',
  'Hansen',
  'Hill',
  'Ivanova',
  'Jensen',
  'Johnson',
  'Kaur',
  'Khan',
  'Kim',
  'Klein',
  'Kowalski',
  'Lambert',
  'Lee',
  'Lopez',
  'Martin',
  'Meyer',
  'Miller',
  'Moreau',
  'Murphy',
  'Nakamura',
  'Nguyen',
  'Novak',
  'Okafor',
  'Olsen',
  'Patel',
  'Perez',
  'Petrov',
  'Reyes',
  'Rossi',
  'Santos',
  'Schmidt',
  'Silva',
  'Singh',
  'Smith',
  'Sato',
  'Taylor',
  'Thomas',
  'Tanaka',
  'Walker',
  'Weber',
  'White',
  'Wilson',
  'Wright',
  'Young',
  'Zhang',
  'Moore',
] as const;

/** Plans with monthly and yearly prices in cents (the same figures in every currency). */
export const PLANS = [
  { name: 'Basic', weight: 50, monthlyCents: 999, yearlyCents: 9900, productId: 201 },
  { name: 'Pro', weight: 35, monthlyCents: 1900, yearlyCents: 19000, productId: 202 },
  { name: 'Premium', weight: 15, monthlyCents: 2900, yearlyCents: 29000, productId: 203 },
] as const;
/** One plan of PLANS. */
export type Plan = (typeof PLANS)[number];

/** Currency mix: mostly USD, ~10 % EUR, ~5 % GBP. */
export const CURRENCIES = [
  ['USD', 85],
  ['EUR', 10],
  ['GBP', 5],
] as const;

/** Traffic sources of LemonSqueezy sign-ups. */
export const LS_SOURCES = [
  ['google', 35],
  ['newsletter', 20],
  ['facebook', 12],
  ['youtube', 10],
  ['podcast', 8],
  ['direct', 15],
] as const;

/** ClickBank affiliate nicknames (lowercase, as ClickBank spells them). */
export const AFFILIATES = [
  'superaff',
  'bestdeals',
  'reviewking',
  'healthguru',
  'nichepro',
  'traffix',
  'promomax',
  'clickhero',
  'emailpro',
  'dealhunter',
  'viralvids',
  'topreviews',
] as const;

/** A country of the seeded addresses: ISO code, weight, and [state code ('' when none), city] pairs. */
export interface CountryChoice {
  code: string;
  weight: number;
  regions: ReadonlyArray<readonly [string, string]>;
}

/** Addresses: country, its states/regions (may be empty) and a postal-code maker key. */
export const COUNTRIES: readonly CountryChoice[] = [
  {
    code: 'US',
    weight: 60,
    regions: [
      ['NY', 'New York'],
      ['CA', 'Los Angeles'],
      ['TX', 'Austin'],
      ['FL', 'Miami'],
      ['WA', 'Seattle'],
      ['IL', 'Chicago'],
      ['MA', 'Boston'],
      ['CO', 'Denver'],
    ],
  },
  {
    code: 'CA',
    weight: 10,
    regions: [
      ['ON', 'Toronto'],
      ['BC', 'Vancouver'],
      ['QC', 'Montreal'],
      ['AB', 'Calgary'],
    ],
  },
  {
    code: 'GB',
    weight: 10,
    regions: [
      ['', 'London'],
      ['', 'Manchester'],
      ['', 'Leeds'],
      ['', 'Bristol'],
    ],
  },
  {
    code: 'AU',
    weight: 8,
    regions: [
      ['NSW', 'Sydney'],
      ['VIC', 'Melbourne'],
      ['QLD', 'Brisbane'],
    ],
  },
  {
    code: 'DE',
    weight: 7,
    regions: [
      ['', 'Berlin'],
      ['', 'Hamburg'],
      ['', 'Munich'],
    ],
  },
  {
    code: 'IE',
    weight: 5,
    regions: [
      ['', 'Dublin'],
      ['', 'Cork'],
    ],
  },
];

/** Street names of the seeded billing addresses. */
export const STREETS = [
  'Main St',
  'Oak Ave',
  'Maple Rd',
  'High St',
  'Park Lane',
  'Elm St',
  'King St',
  'Church Rd',
  'Mill Lane',
  'Station Rd',
] as const;

/** Log lines the seed writes into `logs`: level, message and which context it carries. */
export const LOG_TEMPLATES = [
  ['info', 'LemonSqueezy webhook processed', 'ls'],
  ['info', 'ClickBank instant notification processed', 'cb'],
  ['info', 'Discourse group membership added', 'member'],
  ['info', 'Discourse group membership removed', 'member'],
  ['info', 'Admin signed in', 'admin'],
  ['info', 'Expiration job finished', 'job'],
  ['info', 'Subscription refreshed from provider', 'ls'],
  ['debug', 'Webhook signature verified', 'ls'],
  ['debug', 'ClickBank notification decrypted', 'cb'],
  ['debug', 'Cache warmed', 'job'],
  ['trace', 'Request body parsed', 'request'],
  ['warn', 'Discourse rate limited; will retry', 'discourse'],
  ['warn', 'Webhook replay ignored (duplicate id)', 'ls'],
  ['warn', 'Admin sign-in failed', 'admin_failed'],
  ['warn', 'ClickBank notification for unknown receipt', 'cb'],
  ['error', 'Discourse API error', 'discourse'],
  ['error', 'LemonSqueezy API request failed', 'provider'],
  ['error', 'ClickBank orders API timed out', 'provider'],
  ['fatal', 'Database connection lost', 'fatal'],
] as const;

/** Relative frequency of each log level in the seeded logs. */
export const LOG_LEVEL_WEIGHTS = [
  ['trace', 4],
  ['debug', 14],
  ['info', 60],
  ['warn', 14],
  ['error', 7.5],
  ['fatal', 0.5],
] as const;
