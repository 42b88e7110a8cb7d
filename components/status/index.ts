export { StatusBar } from './status-bar';
export { HealthBanners } from './health-banners';
