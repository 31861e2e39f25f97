/**
 * The site's own content: home banners and featured collections, donations (Stripe and
 * imports) and sitemaps.
 *
 * Other folders reach this one only through this file (`.dependency-cruiser.cjs` checks it).
 */
export { importDonationsCsv } from './donation-import.ts';
export {
  donateLink, donationFormSchema, donationMode, findDonationProject, receiveStripeEvent,
  startDonation, WEBHOOK_MAX_BYTES, type DonateLink, type DonationMode,
} from './donations.ts';
export {
  getCollection, listActiveBanners, listDonations, listFeaturedCollections, listRecentDonations,
  loadBannerSchedule, type BannerInfo, type DonationInfo,
} from './home-content.ts';
export { buildSitemap, buildSitemapIndex, parseSitemapName, SITEMAP_PAGE_SIZE } from './sitemaps.ts';
