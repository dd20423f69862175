/** The contact form's subject length, on its own: the route table (in the page's first JavaScript) needs only this of shared/enquiry.ts. */
export const SUBJECT_LIMIT = 200;
