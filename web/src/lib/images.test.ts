import { describe, expect, it } from 'vitest';
import { responsiveImage } from './images';

describe('responsiveImage', () => {
  it('lists the resized copies of an image from the upload store', () => {
    expect(responsiveImage('/uploads/seed-mug-2.webp', '100vw')).toEqual({
      srcSet: '/uploads/w/200/seed-mug-2.webp 200w, /uploads/w/400/seed-mug-2.webp 400w, /uploads/w/800/seed-mug-2.webp 800w',
      sizes: '100vw',
    });
  });

  it('gives nothing for other URLs', () => {
    for (const src of ['https://cdn.example.com/a.webp', '/uploads/w/400/a.webp', '/uploads/a.jpg', '/uploads/../a.webp', '', '/favicon.svg']) {
      expect(responsiveImage(src, '100vw'), src).toEqual({});
    }
  });
});
