import { describe, expect, it } from 'vitest';
import { fillTemplate, placeCloseMark, placeOpenMark, readMarkedPage, splitPlaces, PLACE_SEPARATOR, tidyIslands } from '../../src/server/page-cache/places.ts';

const STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';
const LOAD = '<script>(()=>{var e=async t=>{await(await t())()};(self.Astro||(self.Astro={})).load=e;window.dispatchEvent(new Event("astro:load"));})();</script>';
const IDLE = '<script>(()=>{var e=async t=>{await(await t())()};(self.Astro||(self.Astro={})).idle=e;window.dispatchEvent(new Event("astro:idle"));})();</script>';
const RUNTIME = '<script>(()=>{customElements.get("astro-island")||customElements.define("astro-island",class extends HTMLElement{})})();</script>';
const island = (prefix: string, client: string, inner = '') => `<astro-island uid="u${prefix}" prefix="${prefix}" client="${client}"><b id="_${prefix}R_0_">${inner}</b><label for="_${prefix}R_0_"></label></astro-island>`;

describe('member places', () => {
  it('mark a guest page so that guests get it unmarked and members get it filled', () => {
    const marked = `<header>${placeOpenMark('header', {})}<a>Sign in</a>${placeCloseMark}</header><main>${placeOpenMark('card-save', { projectId: 'p1', title: 'A --> B & “C”' })}${placeCloseMark}</main>`;
    const { guest, template } = readMarkedPage(Buffer.from(marked));
    expect(guest.toString()).toBe('<header><a>Sign in</a></header><main></main>');
    expect(template?.places).toEqual([
      { name: 'header', args: {} },
      { name: 'card-save', args: { projectId: 'p1', title: 'A --> B & “C”' } },
    ]);
    const fragments = splitPlaces(`<link rel="stylesheet">${PLACE_SEPARATOR}<nav>Ada</nav>${PLACE_SEPARATOR}<button>Save</button>`, 2)!;
    // Kept as bytes; made ready for fills by the first fill, which most kept pages never get.
    expect(template?.ready).toBeUndefined();
    expect(fillTemplate(template!, fragments)).toBe('<header><nav>Ada</nav></header><main><button>Save</button></main>');
    expect(template?.ready).toBeDefined();
    expect(fillTemplate(template!, fragments)).toBe('<header><nav>Ada</nav></header><main><button>Save</button></main>');
    // Read as bytes: characters of several bytes around and inside the marks stay whole.
    const zh = readMarkedPage(Buffer.from(`<p>电路板</p>${placeOpenMark('card-save', { title: '温湿度 “计”' })}<a>登录</a>${placeCloseMark}<p>完</p>`));
    expect(zh.guest.toString()).toBe('<p>电路板</p><a>登录</a><p>完</p>');
    expect(zh.template?.places).toEqual([{ name: 'card-save', args: { title: '温湿度 “计”' } }]);
    expect(fillTemplate(zh.template!, ['<button>保存</button>'])).toBe('<p>电路板</p><button>保存</button><p>完</p>');
    // A places render that answers another number of places is not used.
    expect(splitPlaces(`${PLACE_SEPARATOR}<nav>Ada</nav>`, 2)).toBeNull();
  });

  it('serve a page whose marks do not pair up as guests would get it, with no template', () => {
    const { guest, template } = readMarkedPage(Buffer.from(`<p>${placeOpenMark('header', {})}open only</p>`));
    expect(guest.toString()).toBe('<p>open only</p>');
    expect(template).toBeNull();
  });

  it("renumber the islands of two renders in page order and write Astro's runtime once, before the first island", () => {
    const guestPart = `<main>${STYLE}${IDLE}${RUNTIME}${island('r0', 'idle', 'video')}</main>`;
    const memberHeader = `${STYLE}${LOAD}${RUNTIME}${island('r0', 'load', 'menu')}`;
    const memberCard = `${IDLE}${island('r1', 'idle', 'save')}`;
    const page = tidyIslands(['<header>', memberHeader, '</header>', guestPart, memberCard]);
    expect(page).toBe(
      `<header>${STYLE}${LOAD}${RUNTIME}${island('r0', 'load', 'menu')}</header><main>${IDLE}${island('r1', 'idle', 'video').replace('ur1', 'ur0')}</main>${island('r2', 'idle', 'save').replace('ur2', 'ur1')}`,
    );
    // Every useId value is unique again, and each label still points at its own element.
    const ids = [...page.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(3);
  });

  it("fill a kept page's places with islands numbered after the page's own, the runtime written once before the first island", () => {
    const marked = `<header>${placeOpenMark('header', {})}<a>Sign in</a>${placeCloseMark}</header><main>${STYLE}${IDLE}${RUNTIME}${island('r0', 'idle', 'video')}${placeOpenMark('card-save', { projectId: 'p1' })}${placeCloseMark}</main>`;
    const { template } = readMarkedPage(Buffer.from(marked));
    const fragments = splitPlaces(`${PLACE_SEPARATOR}${STYLE}${LOAD}${RUNTIME}${island('r0', 'load', 'menu')}${PLACE_SEPARATOR}${IDLE}${island('r1', 'idle', 'save')}`, 2)!;
    const page = fillTemplate(template!, fragments);
    expect(page).toBe(
      `<header>${STYLE}${LOAD}${RUNTIME}${island('r1', 'load', 'menu').replace('ur1', 'ur0')}</header><main>${IDLE}${island('r0', 'idle', 'video')}${island('r2', 'idle', 'save').replace('ur2', 'ur1')}</main>`,
    );
    // Each fill starts from the kept page again.
    expect(fillTemplate(template!, fragments)).toBe(page);
    const ids = [...page.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(3);
  });

  it('leave a page without islands as it is', () => {
    expect(tidyIslands(['<p>plain</p>', '<p>page</p>'])).toBe('<p>plain</p><p>page</p>');
  });
});
