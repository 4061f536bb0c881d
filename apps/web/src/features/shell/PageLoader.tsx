import { Center, Loader } from '@mantine/core';

/**
 * What the shell's content area shows while a page's code is fetched (each page is its own
 * chunk): a centered spinner filling the area the page will take, so nothing around it moves.
 */
export function PageLoader() {
  return (
    <Center mih="60vh" data-testid="page-chunk-loader">
      <Loader aria-hidden="true" />
    </Center>
  );
}
