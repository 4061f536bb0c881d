import { Center, Loader } from '@mantine/core';

/** What a page or panel shows in place of its content while that content is first read: a centred spinner. */
export function LoadingState() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}
