/** The demo catalogue: 10 categories, 64 products, several brands. Prices in USD. */
export type ShapeKind =
  | 'headphones' | 'speaker' | 'earbuds' | 'phone' | 'laptop' | 'camera' | 'watch' | 'mug' | 'lamp' | 'kettle'
  | 'shirt' | 'bag' | 'sunglasses' | 'shoe' | 'ball' | 'bottle' | 'backpack' | 'jar' | 'cube' | 'bear'
  | 'book' | 'notebook' | 'chair' | 'plant' | 'can';

export interface DemoProduct {
  name: string;
  brand: string;
  price: number;
  kind: ShapeKind;
  description: string;
}

export interface DemoCategory {
  name: string;
  palette: [string, string];
  products: DemoProduct[];
}

export const DEMO_CATALOGUE: DemoCategory[] = [
  {
    name: 'Electronics',
    palette: ['#4f46e5', '#06b6d4'],
    products: [
      { name: 'Nova X5 Smartphone', brand: 'Nova', price: 699, kind: 'phone', description: 'A 6.4-inch OLED smartphone with a triple camera, all-day battery and fast wireless charging.' },
      { name: 'Nova Lite Smartphone', brand: 'Nova', price: 329, kind: 'phone', description: 'Everything you need in a phone: bright display, dual camera and two-day battery life.' },
      { name: 'Zenbook Air 14 Laptop', brand: 'Zentek', price: 1149, kind: 'laptop', description: 'Ultralight 14-inch laptop with a long-lasting battery, backlit keyboard and crisp display.' },
      { name: 'Pixelight Mirrorless Camera', brand: 'Pixelight', price: 849, kind: 'camera', description: '24 MP mirrorless camera with 4K video, fast autofocus and a flip screen for vlogging.' },
      { name: 'Pulse Fit Smartwatch', brand: 'Pulse', price: 199, kind: 'watch', description: 'Tracks heart rate, sleep and workouts; water resistant with a seven-day battery.' },
      { name: 'Pulse Kids Watch', brand: 'Pulse', price: 59, kind: 'watch', description: 'A sturdy, colourful watch for kids with step goals, alarms and a gentle night light.' },
      { name: 'Zentek Instant Camera', brand: 'Zentek', price: 89, kind: 'camera', description: 'Print your photos in seconds with this retro instant camera. Film pack included.' },
    ],
  },
  {
    name: 'Audio',
    palette: ['#db2777', '#f59e0b'],
    products: [
      { name: 'Aurora Wireless Headphones', brand: 'SoundMax', price: 149.99, kind: 'headphones', description: 'Over-ear wireless headphones with active noise cancelling, deep bass and 30 hours of play.' },
      { name: 'Aurora Studio Headphones', brand: 'SoundMax', price: 229, kind: 'headphones', description: 'Closed-back studio headphones tuned for accurate mixing and long, comfortable sessions.' },
      { name: 'Echo Mini Bluetooth Speaker', brand: 'Echo', price: 49.99, kind: 'speaker', description: 'Pocket-size waterproof speaker with surprisingly big sound and 12 hours of battery.' },
      { name: 'Echo Home Smart Speaker', brand: 'Echo', price: 129, kind: 'speaker', description: 'Room-filling smart speaker with voice control, multi-room audio and a fabric finish.' },
      { name: 'Buds Pro Earbuds', brand: 'SoundMax', price: 119, kind: 'earbuds', description: 'True wireless earbuds with noise cancelling, transparency mode and a wireless charging case.' },
      { name: 'Buds Sport Earbuds', brand: 'Stride', price: 69, kind: 'earbuds', description: 'Secure-fit sports earbuds, sweat resistant, with punchy sound for your runs.' },
      { name: 'Vinyl Desk Speaker Pair', brand: 'Echo', price: 179, kind: 'speaker', description: 'A pair of bookshelf speakers with warm wooden cabinets and a built-in amplifier.' },
    ],
  },
  {
    name: 'Home & Kitchen',
    palette: ['#0d9488', '#a3e635'],
    products: [
      { name: 'Morning Ceramic Mug', brand: 'Hearth', price: 14.5, kind: 'mug', description: 'Hand-glazed stoneware mug that keeps your coffee warm. Dishwasher safe, 350 ml.' },
      { name: 'Thermo Travel Mug', brand: 'Hearth', price: 24, kind: 'mug', description: 'Double-walled steel travel mug: hot for 6 hours, cold for 12, leak-proof lid.' },
      { name: 'Glow Arc Desk Lamp', brand: 'Lumo', price: 64, kind: 'lamp', description: 'Dimmable LED desk lamp with warm and cool light modes and a USB charging port.' },
      { name: 'Nordic Floor Lamp', brand: 'Lumo', price: 139, kind: 'lamp', description: 'Tall floor lamp with an oak stand and a linen shade for soft, cosy light.' },
      { name: 'Swift Electric Kettle', brand: 'Hearth', price: 45, kind: 'kettle', description: '1.7 litre electric kettle with temperature presets for green tea, coffee and more.' },
      { name: 'Copper Pour-Over Kettle', brand: 'Brewster', price: 58, kind: 'kettle', description: 'Gooseneck pour-over kettle for precise brewing, with a built-in thermometer.' },
      { name: 'Brewster Coffee Cups Set', brand: 'Brewster', price: 36, kind: 'mug', description: 'Set of four espresso cups with saucers in speckled matte glaze.' },
    ],
  },
  {
    name: 'Fashion',
    palette: ['#9333ea', '#f472b6'],
    products: [
      { name: 'Everyday Cotton T-Shirt', brand: 'Urbano', price: 19.99, kind: 'shirt', description: 'Soft organic cotton t-shirt with a relaxed fit. Pre-shrunk and made to last.' },
      { name: 'Linen Summer Shirt', brand: 'Urbano', price: 49, kind: 'shirt', description: 'Breathable linen shirt for warm days, with mother-of-pearl buttons.' },
      { name: 'Classic Leather Tote Bag', brand: 'Maison Lea', price: 189, kind: 'bag', description: 'Full-grain leather tote with an inner zip pocket; fits a 13-inch laptop.' },
      { name: 'Canvas Weekend Bag', brand: 'Urbano', price: 79, kind: 'bag', description: 'Roomy waxed-canvas weekender with leather handles and a shoe compartment.' },
      { name: 'Aviator Sunglasses', brand: 'Solace', price: 129, kind: 'sunglasses', description: 'Polarised aviator sunglasses with UV400 protection and a lightweight metal frame.' },
      { name: 'Round Retro Sunglasses', brand: 'Solace', price: 89, kind: 'sunglasses', description: 'Round acetate frames with a vintage feel and scratch-resistant lenses.' },
      { name: 'City Leather Sneakers', brand: 'Stride', price: 110, kind: 'shoe', description: 'Minimal white leather sneakers with a cushioned insole for all-day comfort.' },
    ],
  },
  {
    name: 'Sports & Outdoors',
    palette: ['#ea580c', '#facc15'],
    products: [
      { name: 'Trail Running Shoes', brand: 'Stride', price: 129.99, kind: 'shoe', description: 'Grippy trail running shoes with a rock plate and water-repellent mesh upper.' },
      { name: 'Road Racer Running Shoes', brand: 'Stride', price: 149, kind: 'shoe', description: 'Light, springy road running shoes for race day and tempo runs.' },
      { name: 'Pro Match Football', brand: 'Kickoff', price: 35, kind: 'ball', description: 'FIFA-quality match football with thermally bonded panels for a true flight.' },
      { name: 'Street Basketball', brand: 'Kickoff', price: 29, kind: 'ball', description: 'Durable outdoor basketball with a deep channel design for grip.' },
      { name: 'Hydro Steel Water Bottle', brand: 'Summit', price: 32, kind: 'bottle', description: 'Insulated 750 ml bottle that keeps drinks cold for 24 hours. BPA free.' },
      { name: 'Summit 30L Hiking Backpack', brand: 'Summit', price: 99, kind: 'backpack', description: 'Ventilated 30 litre hiking pack with a rain cover and hip-belt pockets.' },
    ],
  },
  {
    name: 'Beauty',
    palette: ['#be185d', '#fda4af'],
    products: [
      { name: 'Rose Glow Face Serum', brand: 'Bloom', price: 38, kind: 'bottle', description: 'Lightweight vitamin C serum for a brighter, even complexion. 30 ml.' },
      { name: 'Hydrating Night Cream', brand: 'Bloom', price: 42, kind: 'jar', description: 'Rich overnight cream with hyaluronic acid and shea butter for soft skin.' },
      { name: 'Citrus Eau de Parfum', brand: 'Maison Lea', price: 85, kind: 'bottle', description: 'A fresh citrus fragrance with notes of bergamot, neroli and white musk. 50 ml.' },
      { name: 'Clay Detox Face Mask', brand: 'Bloom', price: 22, kind: 'jar', description: 'Kaolin clay mask that draws out impurities and refines pores in ten minutes.' },
      { name: 'Argan Hair Oil', brand: 'Pure Roots', price: 27, kind: 'bottle', description: 'Cold-pressed argan oil that tames frizz and adds shine without weighing hair down.' },
      { name: 'Shea Body Butter', brand: 'Pure Roots', price: 18, kind: 'jar', description: 'Whipped shea body butter with a light vanilla scent for very dry skin.' },
    ],
  },
  {
    name: 'Toys & Games',
    palette: ['#2563eb', '#34d399'],
    products: [
      { name: 'Speed Puzzle Cube', brand: 'Brainy', price: 12.99, kind: 'cube', description: 'Smooth-turning 3x3 speed cube with magnets, for beginners and speedcubers alike.' },
      { name: 'Wooden Building Blocks', brand: 'Brainy', price: 34, kind: 'cube', description: 'Set of 60 natural beech blocks in bright, child-safe colours.' },
      { name: 'Cuddly Teddy Bear', brand: 'Snuggle', price: 29.99, kind: 'bear', description: 'Super soft 40 cm teddy bear, machine washable and safe from birth.' },
      { name: 'Panda Plush Toy', brand: 'Snuggle', price: 24, kind: 'bear', description: 'A huggable panda plush with embroidered eyes and a friendly smile.' },
      { name: 'Family Board Game Night', brand: 'Brainy', price: 39, kind: 'cube', description: 'A fast, funny party board game for 2 to 8 players aged 8 and up.' },
      { name: 'Mini Soccer Ball', brand: 'Kickoff', price: 15, kind: 'ball', description: 'Soft size-2 soccer ball, perfect for little feet and backyard games.' },
    ],
  },
  {
    name: 'Books',
    palette: ['#78350f', '#f59e0b'],
    products: [
      { name: 'The Quiet Garden Novel', brand: 'Paperleaf', price: 16.99, kind: 'book', description: 'A moving novel about a family, a forgotten garden and the summer that changed everything.' },
      { name: 'Midnight Harbour Mystery', brand: 'Paperleaf', price: 14.99, kind: 'book', description: 'A gripping mystery set in a fog-bound port town. Who sank the Mary Rose?' },
      { name: 'Everyday Cooking Cookbook', brand: 'Hearth', price: 29, kind: 'book', description: '120 simple recipes for weeknight dinners, with step-by-step photos.' },
      { name: 'Learn TypeScript Quickly', brand: 'Codex Press', price: 39, kind: 'book', description: 'A practical guide to TypeScript for JavaScript developers, from types to generics.' },
      { name: 'Stars and Planets Atlas', brand: 'Codex Press', price: 34.5, kind: 'book', description: 'An illustrated atlas of the night sky with star charts for every season.' },
      { name: 'Bedtime Stories Collection', brand: 'Paperleaf', price: 21, kind: 'book', description: 'Twenty gentle bedtime stories with colourful illustrations for ages 3 to 7.' },
    ],
  },
  {
    name: 'Office',
    palette: ['#334155', '#60a5fa'],
    products: [
      { name: 'Dotted A5 Notebook', brand: 'Inkwell', price: 15, kind: 'notebook', description: 'Hardcover dotted notebook with 192 pages of fountain-pen friendly paper.' },
      { name: 'Weekly Planner 2025', brand: 'Inkwell', price: 22, kind: 'notebook', description: 'Undated weekly planner with goal pages, habit trackers and a ribbon marker.' },
      { name: 'ErgoFlex Office Chair', brand: 'Sitwell', price: 289, kind: 'chair', description: 'Ergonomic mesh office chair with lumbar support and adjustable armrests.' },
      { name: 'Studio Drafting Stool', brand: 'Sitwell', price: 119, kind: 'chair', description: 'Height-adjustable stool with a foot ring, ideal for standing desks and studios.' },
      { name: 'Zentek Aluminium Laptop Stand', brand: 'Zentek', price: 59, kind: 'laptop', description: 'Aluminium laptop stand that lifts your screen to eye level; folds flat for travel.' },
      { name: 'Brass Desk Organizer Jar', brand: 'Inkwell', price: 19, kind: 'jar', description: 'A weighty brass pen pot that keeps your desk tidy and looks good doing it.' },
    ],
  },
  {
    name: 'Garden',
    palette: ['#15803d', '#86efac'],
    products: [
      { name: 'Monstera House Plant', brand: 'Greenhouse', price: 45, kind: 'plant', description: 'A lush Monstera deliciosa in a 17 cm nursery pot. Easy care, loves bright light.' },
      { name: 'Snake Plant in Ceramic Pot', brand: 'Greenhouse', price: 38, kind: 'plant', description: 'Hardy snake plant in a matte ceramic pot; thrives on little water and low light.' },
      { name: 'Herb Garden Starter Kit', brand: 'Greenhouse', price: 26, kind: 'plant', description: 'Grow basil, parsley and chives on your windowsill. Seeds, soil and pots included.' },
      { name: 'Copper Watering Can', brand: 'Fieldcraft', price: 42, kind: 'can', description: 'Elegant 1.5 litre watering can with a long spout for precise indoor watering.' },
      { name: 'Galvanised Garden Watering Can', brand: 'Fieldcraft', price: 34, kind: 'can', description: 'Classic 9 litre galvanised steel can with a removable brass rose.' },
      { name: 'Ceramic Plant Pot Trio', brand: 'Fieldcraft', price: 29, kind: 'jar', description: 'Three speckled ceramic pots with drainage holes and bamboo saucers.' },
    ],
  },
];

export const REVIEWER_NAMES = [
  'Olivia Martin', 'Liam Chen', 'Sophia Patel', 'Noah Williams', 'Emma Garcia', 'Lucas Novak', 'Mia Johansson',
  'Ethan Brown', 'Ava Rossi', 'Mateo Silva', 'Isabella Kim', 'James O\'Connor', 'Amara Okafor', 'Yuki Tanaka',
];

export const REVIEW_COMMENTS: Record<1 | 2 | 3 | 4 | 5, string[]> = {
  5: ['Absolutely love it, exceeded my expectations.', 'Excellent quality and fast delivery. Would buy again!', 'Perfect gift, they were thrilled.', 'Five stars, does exactly what it says.'],
  4: ['Very good overall, just a small quibble with the packaging.', 'Great value for the price.', 'Really nice, I use it every day.', 'Solid and well made.'],
  3: ['Good, but not amazing.', 'Does the job. Colours slightly different from the photos.', 'Decent, though delivery took a while.'],
  2: ['Fair. Expected better quality for the price.', 'It works, but it feels a bit flimsy.'],
  1: ['Poor. Stopped working after a week.', 'Not as described, returned it.'],
};
