export const BRAND = 'Shop';
export const TAGLINE = 'Great finds, delivered';
