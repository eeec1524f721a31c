/** What the published answers share: links to a record's details and the sample address. */
import { SAMPLE_ADDRESS } from '../../../catalogue';

export const link = (topic: string, href: string) => ({ topic, href, type: 'GET' });
export const ADDRESS = SAMPLE_ADDRESS;
